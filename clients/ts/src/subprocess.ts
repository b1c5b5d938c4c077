import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import type { CodeExecution, CodeExecutionOutcome, CodeExecutor, CodeOutputFile } from "./codeexec.js";

/** How a {@link SubprocessCodeExecutor} runs code. */
export interface SubprocessCodeExecutorOptions {
  /**
   * The program and its arguments; the code is written to its standard
   * input. Default `["python3", "-"]`.
   */
  command?: readonly string[];
  /** The languages it runs. Default `["python", "tool_code"]` (ADK's code blocks). */
  languages?: readonly string[];
  /** Past this, the process is killed and the execution fails. Default 30 000 ms. */
  timeoutMs?: number;
  /** Bytes kept of stdout and of stderr each; the rest is dropped. Default 1 MiB. */
  maxOutputBytes?: number;
  /** Total bytes of the output files; past it, the execution fails. Default 16 MiB. */
  maxOutputFileBytes?: number;
  /**
   * The environment of the process. Default: only `PATH` of this process,
   * so that the code sees none of its secrets.
   */
  env?: Readonly<Record<string, string>>;
}

const defaultMaxOutput = 1 << 20;
const defaultMaxFiles = 16 << 20;

const mimeTypes: Record<string, string> = {
  ".csv": "text/csv",
  ".gif": "image/gif",
  ".html": "text/html",
  ".jpeg": "image/jpeg",
  ".jpg": "image/jpeg",
  ".json": "application/json",
  ".md": "text/markdown",
  ".pdf": "application/pdf",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".txt": "text/plain",
};

/**
 * A {@link CodeExecutor} that runs each code block in a new process (by
 * default `python3`), in a temporary directory that holds the input files.
 * The regular files the code leaves in that directory (new ones, and inputs
 * it changed) are the output files. The process's stdout is the result; a
 * non-zero exit or a timeout fails the execution with its stderr. It keeps
 * no state between executions, so it does not serve stateful executors'
 * shared interpreter state.
 *
 * The code runs with this process's rights: use it only where running the
 * model's code is acceptable, or give a `command` that sandboxes it.
 */
export class SubprocessCodeExecutor implements CodeExecutor {
  private readonly command: readonly string[];
  private readonly languages: ReadonlySet<string>;
  private readonly timeoutMs: number;
  private readonly maxOutputBytes: number;
  private readonly maxOutputFileBytes: number;
  private readonly env: Record<string, string>;

  /** Throws a TypeError for an empty command or a bound that is not positive. */
  constructor(options: SubprocessCodeExecutorOptions = {}) {
    this.command = [...(options.command ?? ["python3", "-"])];
    if (this.command.length === 0 || this.command[0] === "") {
      throw new TypeError("SubprocessCodeExecutor: the command is empty");
    }
    this.languages = new Set(options.languages ?? ["python", "tool_code"]);
    this.timeoutMs = positive(options.timeoutMs ?? 30_000, "timeoutMs");
    this.maxOutputBytes = positive(options.maxOutputBytes ?? defaultMaxOutput, "maxOutputBytes");
    this.maxOutputFileBytes = positive(options.maxOutputFileBytes ?? defaultMaxFiles, "maxOutputFileBytes");
    this.env = { ...(options.env ?? { PATH: process.env["PATH"] ?? "" }) };
  }

  /** Runs the code; rejects (a failed execution) when it cannot. */
  async execute(execution: CodeExecution): Promise<CodeExecutionOutcome> {
    if (!this.languages.has(execution.language)) {
      throw new Error(`Language '${execution.language}' is not supported by this code executor.`);
    }
    const dir = await mkdtemp(join(tmpdir(), "agentsvc-code-"));
    try {
      const inputs = new Map<string, Uint8Array>();
      for (const file of execution.inputFiles) {
        checkInputName(file.name);
        await writeFile(join(dir, file.name), file.content);
        inputs.set(file.name, file.content);
      }
      const run = await this.spawn(dir, execution.code, execution.signal);
      if (run.timedOut) {
        return { stdout: run.stdout, stderr: `Code execution timed out after ${this.timeoutMs / 1000} seconds.` };
      }
      if (run.exitCode !== 0) {
        const how = run.exitCode === null ? `was killed by ${run.signal ?? "a signal"}` : `exited with code ${run.exitCode}`;
        return { stdout: run.stdout, stderr: run.stderr !== "" ? run.stderr : `The code ${how}.` };
      }
      return { stdout: run.stdout, outputFiles: await this.outputFiles(dir, inputs) };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  private spawn(dir: string, code: string, signal: AbortSignal): Promise<ProcessRun> {
    return new Promise<ProcessRun>((resolve, reject) => {
      const [program, ...args] = this.command as [string, ...string[]];
      // Its own process group, so that killing it kills what it started too: a child left
      // running would hold the output pipes open and keep working after the execution ended.
      const child = spawn(program, args, { cwd: dir, env: this.env, stdio: ["pipe", "pipe", "pipe"], detached: true });
      const kill = () => {
        try {
          process.kill(-(child.pid ?? 0), "SIGKILL");
        } catch {
          // Already gone.
        }
      };
      const stdout = new Capped(this.maxOutputBytes);
      const stderr = new Capped(this.maxOutputBytes);
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        kill();
      }, this.timeoutMs);
      if (signal.aborted) {
        kill();
      }
      signal.addEventListener("abort", kill, { once: true });
      child.stdout.on("data", (chunk: Buffer) => stdout.add(chunk));
      child.stderr.on("data", (chunk: Buffer) => stderr.add(chunk));
      // A program that exits without reading its input closes the pipe early.
      child.stdin.on("error", () => {});
      child.on("error", (err) => {
        clearTimeout(timer);
        signal.removeEventListener("abort", kill);
        reject(err);
      });
      child.on("close", (exitCode, exitSignal) => {
        clearTimeout(timer);
        signal.removeEventListener("abort", kill);
        // Whatever it left running in its group goes with it.
        kill();
        if (signal.aborted) {
          reject(new Error("The run ended before the code finished."));
          return;
        }
        resolve({ stdout: stdout.text(), stderr: stderr.text(), exitCode, signal: exitSignal, timedOut });
      });
      child.stdin.end(code);
    });
  }

  private async outputFiles(dir: string, inputs: ReadonlyMap<string, Uint8Array>): Promise<CodeOutputFile[]> {
    const files: CodeOutputFile[] = [];
    let total = 0;
    for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (!entry.isFile()) {
        continue;
      }
      const path = join(dir, entry.name);
      total += (await stat(path)).size;
      if (total > this.maxOutputFileBytes) {
        throw new Error(`The code's output files exceed ${this.maxOutputFileBytes} bytes.`);
      }
      const content = new Uint8Array(await readFile(path));
      const input = inputs.get(entry.name);
      if (input !== undefined && Buffer.compare(content, input) === 0) {
        continue;
      }
      const mimeType = mimeTypes[extname(entry.name).toLowerCase()] ?? "application/octet-stream";
      files.push({ name: entry.name, mimeType, content });
    }
    return files;
  }
}

interface ProcessRun {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
}

/** Collects a stream's bytes up to a bound. */
class Capped {
  private readonly chunks: Buffer[] = [];
  private size = 0;

  constructor(private readonly max: number) {}

  add(chunk: Buffer): void {
    const room = this.max - this.size;
    if (room > 0) {
      const kept = chunk.length <= room ? chunk : chunk.subarray(0, room);
      this.chunks.push(kept);
      this.size += kept.length;
    }
  }

  text(): string {
    return Buffer.concat(this.chunks).toString("utf8");
  }
}

function positive(value: number, name: string): number {
  if (!Number.isFinite(value) || value <= 0) {
    throw new TypeError(`SubprocessCodeExecutor: ${name} must be a positive number`);
  }
  return value;
}

/** Input files are written by name into the directory: a name must stay in it. */
function checkInputName(name: string): void {
  if (name === "" || name === "." || name === ".." || /[/\\\0]/.test(name)) {
    throw new Error(`Input file name ${JSON.stringify(name)} is not a plain file name.`);
  }
}
