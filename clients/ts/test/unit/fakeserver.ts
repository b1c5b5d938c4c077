import * as http2 from "node:http2";
import type { AddressInfo } from "node:net";
import type { ServiceImpl } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { RunnerService } from "../../src/gen/agentsvc/v1/runner_service_pb.js";
import { SessionService } from "../../src/gen/agentsvc/v1/session_service_pb.js";
import { AppService } from "../../src/gen/agentsvc/v1/app_service_pb.js";
import { ArtifactService } from "../../src/gen/agentsvc/v1/artifact_service_pb.js";

/** The methods a test implements; the others answer UNIMPLEMENTED. */
export interface FakeServices {
  runner?: Partial<ServiceImpl<typeof RunnerService>>;
  sessions?: Partial<ServiceImpl<typeof SessionService>>;
  apps?: Partial<ServiceImpl<typeof AppService>>;
  artifacts?: Partial<ServiceImpl<typeof ArtifactService>>;
}

/** An in-process gRPC server over cleartext HTTP/2 on a loopback port. */
export interface FakeServer {
  /** host:port. */
  address: string;
  close(): Promise<void>;
}

/** Starts a server whose handlers are those of services. */
export async function startFakeServer(services: FakeServices): Promise<FakeServer> {
  const handler = connectNodeAdapter({
    grpc: true,
    connect: false,
    grpcWeb: false,
    routes: (router) => {
      router.service(RunnerService, services.runner ?? {});
      router.service(SessionService, services.sessions ?? {});
      router.service(AppService, services.apps ?? {});
      router.service(ArtifactService, services.artifacts ?? {});
    },
  });
  const server = http2.createServer(handler);
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on("session", (session) => {
    sessions.add(session);
    session.on("close", () => sessions.delete(session));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const session of sessions) {
          session.destroy();
        }
        server.close(() => resolve());
      }),
  };
}
