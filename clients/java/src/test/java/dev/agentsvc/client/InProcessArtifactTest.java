package dev.agentsvc.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.Struct;
import dev.agentsvc.v1.ArtifactServiceGrpc;
import dev.agentsvc.v1.ArtifactVersion;
import dev.agentsvc.v1.Blob;
import dev.agentsvc.v1.CallbackKind;
import dev.agentsvc.v1.CallbackResult;
import dev.agentsvc.v1.DeleteArtifactRequest;
import dev.agentsvc.v1.DeleteArtifactResponse;
import dev.agentsvc.v1.GetArtifactVersionRequest;
import dev.agentsvc.v1.GetArtifactVersionResponse;
import dev.agentsvc.v1.ListArtifactVersionsMetadataRequest;
import dev.agentsvc.v1.SaveArtifactResponse;
import dev.agentsvc.v1.ListArtifactKeysRequest;
import dev.agentsvc.v1.ListArtifactKeysResponse;
import dev.agentsvc.v1.ListArtifactVersionsMetadataResponse;
import dev.agentsvc.v1.ListArtifactVersionsRequest;
import dev.agentsvc.v1.ListArtifactVersionsResponse;
import dev.agentsvc.v1.LoadArtifactRequest;
import dev.agentsvc.v1.LoadArtifactResponse;
import dev.agentsvc.v1.Part;
import dev.agentsvc.v1.RunRequest;
import dev.agentsvc.v1.SaveArtifactRequest;
import dev.agentsvc.v1.ToolResult;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Artifacts against an in-process fake: the client's ArtifactService calls, the {@link Artifacts}
 * conversions, and the files tools and callbacks save with their results.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class InProcessArtifactTest {
  private FakeAgentsvc fake;
  private AgentsvcClient client;
  private MemoryArtifacts store;

  @BeforeEach
  void start() throws Exception {
    fake = new FakeAgentsvc();
    store = new MemoryArtifacts();
    fake.artifacts = store;
    client = fake.client();
  }

  @AfterEach
  void stop() throws Exception {
    client.close();
    fake.close();
  }

  /**
   * An in-memory ArtifactService keyed as the service's: "user:" names by app and user, others
   * by app, user and session. Records the requests it gets; the app "nope" does not exist.
   */
  static final class MemoryArtifacts extends ArtifactServiceGrpc.ArtifactServiceImplBase {
    final List<Object> requests = Collections.synchronizedList(new ArrayList<>());
    private final Map<String, List<Part>> parts = new ConcurrentHashMap<>();
    private final Map<String, List<ArtifactVersion>> versions = new ConcurrentHashMap<>();

    private static String key(String app, String user, String session, String filename) {
      return filename.startsWith("user:")
          ? app + "/" + user + "/" + filename
          : app + "/" + user + "/" + session + "/" + filename;
    }

    private boolean noApp(String app, StreamObserver<?> out) {
      if (app.equals("nope")) {
        out.onError(AgentsvcExceptionTest.status(
            Status.Code.NOT_FOUND, "APP_NOT_FOUND", "App not found"));
        return true;
      }
      return false;
    }

    private static StatusRuntimeException notFound() {
      return AgentsvcExceptionTest.status(
          Status.Code.NOT_FOUND, "ARTIFACT_NOT_FOUND", "Artifact not found");
    }

    @Override
    public void listArtifactKeys(
        ListArtifactKeysRequest r, StreamObserver<ListArtifactKeysResponse> out) {
      requests.add(r);
      if (noApp(r.getAppName(), out)) {
        return;
      }
      String session = r.getAppName() + "/" + r.getUserId() + "/" + r.getSessionId() + "/";
      String user = r.getAppName() + "/" + r.getUserId() + "/user:";
      TreeMap<String, String> names = new TreeMap<>();
      for (String k : parts.keySet()) {
        if (k.startsWith(session)) {
          names.put(k.substring(session.length()), "");
        } else if (k.startsWith(user)) {
          names.put(k.substring(user.length() - "user:".length()), "");
        }
      }
      out.onNext(ListArtifactKeysResponse.newBuilder().addAllFilenames(names.keySet()).build());
      out.onCompleted();
    }

    @Override
    public void loadArtifact(LoadArtifactRequest r, StreamObserver<LoadArtifactResponse> out) {
      requests.add(r);
      if (noApp(r.getAppName(), out)) {
        return;
      }
      List<Part> list = parts.get(key(r.getAppName(), r.getUserId(), r.getSessionId(),
          r.getFilename()));
      int v = r.hasVersion() ? r.getVersion() : list == null ? -1 : list.size() - 1;
      if (list == null || v < 0 || v >= list.size()) {
        out.onError(notFound());
        return;
      }
      out.onNext(LoadArtifactResponse.newBuilder().setArtifact(list.get(v)).build());
      out.onCompleted();
    }

    @Override
    public void listArtifactVersions(
        ListArtifactVersionsRequest r, StreamObserver<ListArtifactVersionsResponse> out) {
      requests.add(r);
      List<ArtifactVersion> list = versions.getOrDefault(
          key(r.getAppName(), r.getUserId(), r.getSessionId(), r.getFilename()), List.of());
      ListArtifactVersionsResponse.Builder resp = ListArtifactVersionsResponse.newBuilder();
      list.forEach(v -> resp.addVersions(v.getVersion()));
      out.onNext(resp.build());
      out.onCompleted();
    }

    @Override
    public void listArtifactVersionsMetadata(ListArtifactVersionsMetadataRequest r,
        StreamObserver<ListArtifactVersionsMetadataResponse> out) {
      requests.add(r);
      out.onNext(ListArtifactVersionsMetadataResponse.newBuilder()
          .addAllVersions(versions.getOrDefault(
              key(r.getAppName(), r.getUserId(), r.getSessionId(), r.getFilename()), List.of()))
          .build());
      out.onCompleted();
    }

    @Override
    public void getArtifactVersion(
        GetArtifactVersionRequest r, StreamObserver<GetArtifactVersionResponse> out) {
      requests.add(r);
      if (noApp(r.getAppName(), out)) {
        return;
      }
      List<ArtifactVersion> list = versions.get(
          key(r.getAppName(), r.getUserId(), r.getSessionId(), r.getFilename()));
      if (list == null || r.getVersion() >= list.size()) {
        out.onError(notFound());
        return;
      }
      out.onNext(GetArtifactVersionResponse.newBuilder().setArtifactVersion(list.get(r.getVersion())).build());
      out.onCompleted();
    }

    @Override
    public synchronized void saveArtifact(
        SaveArtifactRequest r, StreamObserver<SaveArtifactResponse> out) {
      requests.add(r);
      if (noApp(r.getAppName(), out)) {
        return;
      }
      String k = key(r.getAppName(), r.getUserId(), r.getSessionId(), r.getFilename());
      List<Part> list = parts.computeIfAbsent(k, x -> new ArrayList<>());
      list.add(r.getArtifact());
      ArtifactVersion v = ArtifactVersion.newBuilder()
          .setVersion(list.size() - 1)
          .setCanonicalUri("memory://" + k + "/versions/" + (list.size() - 1))
          .setCustomMetadata(r.getCustomMetadata())
          .setCreateTime(1_700_000_000.25 + list.size())
          .setMimeType(Artifacts.mimeType(r.getArtifact()))
          .build();
      versions.computeIfAbsent(k, x -> new ArrayList<>()).add(v);
      out.onNext(SaveArtifactResponse.newBuilder().setArtifactVersion(v).build());
      out.onCompleted();
    }

    @Override
    public void deleteArtifact(
        DeleteArtifactRequest r, StreamObserver<DeleteArtifactResponse> out) {
      requests.add(r);
      String k = key(r.getAppName(), r.getUserId(), r.getSessionId(), r.getFilename());
      parts.remove(k);
      versions.remove(k);
      out.onNext(DeleteArtifactResponse.getDefaultInstance());
      out.onCompleted();
    }
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void savesBytesTextAndPartsAsRequestsOfTheService() {
    ArtifactVersion pdf = client.saveArtifact("app", "u", "s", "report.pdf",
        new byte[] {37, 80, 68, 70}, "application/pdf");
    assertEquals(0, pdf.getVersion());
    assertEquals("application/pdf", pdf.getMimeType());
    ArtifactVersion note = client.saveArtifact("app", "u", "s", "report.pdf", "plain words",
        Map.of("source", "test", "pages", 2));
    assertEquals(1, note.getVersion());
    assertEquals(Map.of("source", "test", "pages", 2.0), Artifacts.customMetadata(note));
    ArtifactVersion csv = client.saveArtifact("app", "u", "s", "user:data.csv",
        Artifacts.inlineData(utf8("a,b\n"), "text/csv"), Map.of("rows", 1));
    assertEquals(0, csv.getVersion());
    client.saveArtifact("app", "u", "s", "note.txt", "hello");
    client.saveArtifact("app", "u", "s", "raw.bin", new byte[] {1}, "application/octet-stream",
        Map.of("k", "v"));
    client.saveArtifact("app", "u", "s", "part.txt", Artifacts.textPart("as a part"));

    List<SaveArtifactRequest> saves = store.requests.stream()
        .filter(SaveArtifactRequest.class::isInstance).map(SaveArtifactRequest.class::cast)
        .toList();
    assertEquals(6, saves.size());
    SaveArtifactRequest first = saves.get(0);
    assertEquals(List.of("app", "u", "s", "report.pdf"), List.of(first.getAppName(),
        first.getUserId(), first.getSessionId(), first.getFilename()));
    assertEquals(Part.newBuilder().setInlineData(Blob.newBuilder().setMimeType("application/pdf")
        .setData(ByteString.copyFrom(new byte[] {37, 80, 68, 70}))).build(), first.getArtifact());
    assertFalse(first.hasCustomMetadata(), "no metadata, none sent");
    assertEquals(Part.newBuilder().setText("plain words").build(), saves.get(1).getArtifact());
    assertEquals(Values.toStruct(Map.of("source", "test", "pages", 2)),
        saves.get(1).getCustomMetadata());
    assertEquals("text/csv", saves.get(2).getArtifact().getInlineData().getMimeType());
    assertEquals(Values.toStruct(Map.of("rows", 1)), saves.get(2).getCustomMetadata());
    assertEquals(Part.newBuilder().setText("hello").build(), saves.get(3).getArtifact());
    assertEquals(Values.toStruct(Map.of("k", "v")), saves.get(4).getCustomMetadata());
    assertEquals("as a part", saves.get(5).getArtifact().getText());

    assertThrows(NullPointerException.class,
        () -> client.saveArtifact("app", "u", "s", "x", (Part) null));
    assertThrows(NullPointerException.class,
        () -> client.saveArtifact("app", "u", "s", "x", new byte[0], null));
    NotFoundException noApp = assertThrows(NotFoundException.class,
        () -> client.saveArtifact("nope", "u", "s", "x", "text"));
    assertEquals(ErrorReasons.APP_NOT_FOUND, noApp.reason());
  }

  @Test
  void loadsTheLatestOrAVersionAndAnswersEmptyForAMissingOne() {
    client.saveArtifact("app", "u", "s", "a.txt", "one");
    client.saveArtifact("app", "u", "s", "a.txt", utf8("two"), "text/markdown");

    Part latest = client.loadArtifact("app", "u", "s", "a.txt").orElseThrow();
    assertEquals("two", Artifacts.text(latest));
    assertEquals("text/markdown", Artifacts.mimeType(latest));
    Part first = client.loadArtifact("app", "u", "s", "a.txt", 0).orElseThrow();
    assertEquals("one", Artifacts.text(first));
    assertEquals(Artifacts.TEXT_MIME_TYPE, Artifacts.mimeType(first));

    assertEquals(Optional.empty(), client.loadArtifact("app", "u", "s", "missing.txt"));
    assertEquals(Optional.empty(), client.loadArtifact("app", "u", "s", "a.txt", 7));
    assertEquals(Optional.empty(), client.loadArtifact("app", "u", "other", "a.txt"),
        "another session's artifact");

    List<LoadArtifactRequest> loads = store.requests.stream()
        .filter(LoadArtifactRequest.class::isInstance).map(LoadArtifactRequest.class::cast)
        .toList();
    assertFalse(loads.get(0).hasVersion(), "no version asks for the latest");
    assertTrue(loads.get(1).hasVersion());
    assertEquals(0, loads.get(1).getVersion());
    assertEquals(7, loads.get(3).getVersion());

    // Only a missing artifact is an empty result: an unknown app still throws.
    NotFoundException noApp = assertThrows(NotFoundException.class,
        () -> client.loadArtifact("nope", "u", "s", "a.txt"));
    assertEquals(ErrorReasons.APP_NOT_FOUND, noApp.reason());
  }

  @Test
  void listsDescribesAndDeletes() {
    client.saveArtifact("app", "u", "s", "b.txt", "b0");
    client.saveArtifact("app", "u", "s", "a.txt", "a0");
    client.saveArtifact("app", "u", "s", "a.txt", "a1", Map.of("rev", "second"));
    client.saveArtifact("app", "u", "s", "user:profile.json", utf8("{}"), "application/json");

    assertEquals(List.of("a.txt", "b.txt", "user:profile.json"),
        client.listArtifacts("app", "u", "s"));
    assertEquals(List.of("user:profile.json"), client.listArtifacts("app", "u", "s2"),
        "the user's artifacts from another session");
    assertEquals(List.of(0, 1), client.listArtifactVersions("app", "u", "s", "a.txt"));
    assertEquals(List.of(), client.listArtifactVersions("app", "u", "s", "missing"));

    List<ArtifactVersion> meta = client.listArtifactVersionsMetadata("app", "u", "s", "a.txt");
    assertEquals(2, meta.size());
    assertEquals(List.of(0, 1), meta.stream().map(ArtifactVersion::getVersion).toList());
    assertEquals(Map.of("rev", "second"), Artifacts.customMetadata(meta.get(1)));
    assertEquals(Map.of(), Artifacts.customMetadata(meta.get(0)));

    ArtifactVersion v1 = client.getArtifactVersion("app", "u", "s", "a.txt", 1).orElseThrow();
    assertEquals(meta.get(1), v1);
    assertTrue(v1.getCanonicalUri().endsWith("/a.txt/versions/1"), v1.getCanonicalUri());
    assertEquals(Optional.empty(), client.getArtifactVersion("app", "u", "s", "a.txt", 2));
    assertEquals(Optional.empty(), client.getArtifactVersion("app", "u", "s", "missing", 0));
    assertThrows(NotFoundException.class,
        () -> client.getArtifactVersion("nope", "u", "s", "a.txt", 0));

    client.deleteArtifact("app", "u", "s", "a.txt");
    client.deleteArtifact("app", "u", "s", "a.txt");
    assertEquals(List.of("b.txt", "user:profile.json"), client.listArtifacts("app", "u", "s"));
    assertEquals(Optional.empty(), client.loadArtifact("app", "u", "s", "a.txt"));
    DeleteArtifactRequest delete = (DeleteArtifactRequest) store.requests.stream()
        .filter(DeleteArtifactRequest.class::isInstance).findFirst().orElseThrow();
    assertEquals(List.of("app", "u", "s", "a.txt"), List.of(delete.getAppName(),
        delete.getUserId(), delete.getSessionId(), delete.getFilename()));
    assertThrows(NotFoundException.class, () -> client.listArtifacts("nope", "u", "s"));
  }

  @Test
  void conversions() {
    Part bytes = Artifacts.inlineData(utf8("héllo"), "text/plain; charset=utf-8");
    assertArrayEquals(utf8("héllo"), Artifacts.bytes(bytes));
    assertEquals("héllo", Artifacts.text(bytes));
    assertEquals("text/plain; charset=utf-8", Artifacts.mimeType(bytes));

    Part text = Artifacts.textPart("ünïcode");
    assertEquals("ünïcode", text.getText());
    assertFalse(text.hasInlineData());
    assertArrayEquals(utf8("ünïcode"), Artifacts.bytes(text));
    assertEquals("ünïcode", Artifacts.text(text));
    assertEquals("text/plain", Artifacts.mimeType(text));

    // The bytes are copied: changing the array afterwards changes nothing.
    byte[] data = {1, 2, 3};
    Part copy = Artifacts.inlineData(data, "application/octet-stream");
    data[0] = 9;
    assertArrayEquals(new byte[] {1, 2, 3}, Artifacts.bytes(copy));

    assertTrue(Artifacts.isUserScoped("user:profile.json"));
    assertFalse(Artifacts.isUserScoped("profile.json"));
    assertFalse(Artifacts.isUserScoped("users:x"));

    ArtifactVersion v = ArtifactVersion.newBuilder()
        .setVersion(3).setCreateTime(1_700_000_000.123456)
        .setCustomMetadata(Values.toStruct(Map.of("tags", List.of("a", "b"), "n", 1))).build();
    assertEquals(Instant.parse("2023-11-14T22:13:20.123456Z"), Artifacts.createTime(v));
    assertEquals(Instant.EPOCH, Artifacts.createTime(ArtifactVersion.getDefaultInstance()));
    assertEquals(Map.of("tags", List.of("a", "b"), "n", 1.0), Artifacts.customMetadata(v));

    assertThrows(NullPointerException.class, () -> Artifacts.inlineData(null, "x/y"));
    assertThrows(NullPointerException.class, () -> Artifacts.inlineData(new byte[0], null));
    assertThrows(NullPointerException.class, () -> Artifacts.textPart(null));
  }

  // Tools and callbacks.

  @Test
  void toolsSaveArtifactsWithTheirResult() throws Exception {
    CountDownLatch together = new CountDownLatch(8);
    List<FunctionTool> tools = List.of(
        FunctionTool.builder("get_a").handler((args, ctx) -> {
          ctx.saveArtifact("report.pdf", new byte[] {37, 80, 68, 70}, "application/pdf");
          ctx.saveArtifact("user:notes.txt", "first");
          ctx.saveArtifact("user:notes.txt", "second");   // one version per call: the last wins
          ctx.saveArtifact("chart.png",
              Part.newBuilder().setInlineData(Blob.newBuilder().setMimeType("image/png")
                  .setData(ByteString.copyFrom(new byte[] {(byte) 0x89, 'P', 'N', 'G'}))
                  .setDisplayName("chart")).build());
          return Map.of("saved", 3);
        }).build(),
        FunctionTool.builder("get_b").handler((args, ctx) -> {
          // Saved from the threads of the tool's own async work.
          List<CompletableFuture<Void>> work = new ArrayList<>();
          for (int i = 0; i < 8; i++) {
            int n = i;
            work.add(CompletableFuture.runAsync(() -> {
              together.countDown();
              try {
                together.await(5, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                throw new IllegalStateException(e);
              }
              ctx.saveArtifact("part-" + n + ".txt", "part " + n);
              ctx.putState("n" + n, n);
            }));
          }
          return CompletableFuture.allOf(work.toArray(CompletableFuture[]::new))
              .thenApply(x -> "done");
        }).build(),
        FunctionTool.builder("get_c").handler((args, ctx) -> {
          ctx.saveArtifact("partial.log", "written before failing");
          throw new IllegalStateException("disk full");
        }).build(),
        FunctionTool.builder("get_d").handler((args, ctx) -> {
          IllegalArgumentException empty = assertThrows(IllegalArgumentException.class,
              () -> ctx.saveArtifact("empty.txt", ""));
          assertThrows(IllegalArgumentException.class,
              () -> ctx.saveArtifact("empty.bin", Part.getDefaultInstance()));
          assertThrows(IllegalArgumentException.class, () -> ctx.saveArtifact("", "text"));
          assertThrows(NullPointerException.class, () -> ctx.saveArtifact(null, "text"));
          return empty.getMessage();
        }).build());

    Map<String, ToolResult> results = new ConcurrentHashMap<>();
    CompletableFuture<Void> server = InProcessRunTest.onConnect(fake, s -> {
      s.next();
      for (String id : List.of("a", "b", "c", "d")) {
        s.send(InProcessRunTest.toolCall(id, "get_" + id, Map.of()));
      }
      for (int i = 0; i < 4; i++) {
        ToolResult r = s.next().getToolResult();
        results.put(r.getCallId(), r);
      }
      s.send(InProcessRunTest.done());
      s.out.onCompleted();
    });
    try (Invocation run = client.run("weather", "u", "s", "go", tools)) {
      assertEquals(List.of(), run.stream().toList());
    }
    server.get(5, TimeUnit.SECONDS);

    ToolResult a = results.get("a");
    assertEquals(Values.toValue(Map.of("saved", 3)), a.getResponse());
    assertEquals(Set.of("report.pdf", "user:notes.txt", "chart.png"),
        a.getArtifactsMap().keySet());
    assertEquals(Artifacts.inlineData(new byte[] {37, 80, 68, 70}, "application/pdf"),
        a.getArtifactsOrThrow("report.pdf"));
    assertEquals(Part.newBuilder().setText("second").build(),
        a.getArtifactsOrThrow("user:notes.txt"));
    assertEquals("chart", a.getArtifactsOrThrow("chart.png").getInlineData().getDisplayName());
    assertFalse(a.hasActions(), "artifacts are not actions");

    ToolResult b = results.get("b");
    assertEquals(8, b.getArtifactsCount());
    assertEquals(8, b.getActions().getStateDelta().getFieldsCount());
    for (int i = 0; i < 8; i++) {
      assertEquals("part " + i, b.getArtifactsOrThrow("part-" + i + ".txt").getText());
    }

    ToolResult c = results.get("c");
    assertEquals("disk full", c.getError());
    assertEquals(Map.of("partial.log", Artifacts.textPart("written before failing")),
        c.getArtifactsMap(), "what a failing tool saved is sent, as its actions are");

    ToolResult d = results.get("d");
    assertEquals(Values.toValue("Artifact must have either inline_data or text."),
        d.getResponse());
    assertEquals(0, d.getArtifactsCount());
  }

  @Test
  void callbacksSaveArtifactsWithTheirResult() throws Exception {
    Callback saving = Callback.builder("audit")
        .beforeModel((ctx, request) -> {
          ctx.saveArtifact("user:prompt.txt", Callback.lastUserText(request));
          ctx.saveArtifact("trace.json", utf8("{\"step\":1}"), "application/json");
          return null;
        })
        .afterTool((ctx, args, response) -> {
          ctx.saveArtifact("result.txt", response.toString());
          return Map.of("ok", true);
        })
        .build();
    Callback failing = Callback.afterModel("broken", (ctx, response) -> {
      ctx.saveArtifact("never.txt", "never saved");
      throw new IllegalStateException("broken");
    });
    Callback invalid = Callback.beforeAgent("bad_override", ctx -> {
      ctx.saveArtifact("never.txt", "never saved either");
      return 42;
    });
    Callback empty = Callback.afterAgent("empty", ctx -> {
      assertThrows(IllegalArgumentException.class, () -> ctx.saveArtifact("x.txt", ""));
      return null;
    });

    Map<String, CallbackResult> results = new ConcurrentHashMap<>();
    CompletableFuture<Void> server = InProcessRunTest.onConnect(fake, s -> {
      s.next();
      s.send(InProcessCallbackTest.callbackCall("1", "audit",
          CallbackKind.CALLBACK_KIND_BEFORE_MODEL,
          c -> c.setLlmRequest(InProcessCallbackTest.request("summarize this"))));
      s.send(InProcessCallbackTest.callbackCall("2", "audit",
          CallbackKind.CALLBACK_KIND_AFTER_TOOL,
          c -> c.setToolCall(InProcessCallbackTest.weatherCall())
              .setToolResponse(Values.toStruct(Map.of("sky", "sunny")))));
      s.send(InProcessCallbackTest.callbackCall("3", "broken",
          CallbackKind.CALLBACK_KIND_AFTER_MODEL));
      s.send(InProcessCallbackTest.callbackCall("4", "bad_override",
          CallbackKind.CALLBACK_KIND_BEFORE_AGENT));
      s.send(InProcessCallbackTest.callbackCall("5", "empty",
          CallbackKind.CALLBACK_KIND_AFTER_AGENT));
      for (int i = 0; i < 5; i++) {
        CallbackResult r = s.next().getCallbackResult();
        results.put(r.getCallId(), r);
      }
      s.send(InProcessRunTest.done());
      s.out.onCompleted();
    });
    RunRequest req = RunRequest.newBuilder().setAppName("guarded").setUserId("u")
        .setSessionId("s").setNewMessage(Contents.userText("hi")).build();
    try (Invocation run = client.run(req, List.of(), List.of(saving, failing, invalid, empty))) {
      assertEquals(List.of(), run.stream().toList());
    }
    server.get(5, TimeUnit.SECONDS);

    CallbackResult before = results.get("1");
    assertEquals(Map.of(
            "user:prompt.txt", Artifacts.textPart("summarize this"),
            "trace.json", Artifacts.inlineData(utf8("{\"step\":1}"), "application/json")),
        before.getArtifactsMap());
    assertFalse(before.hasLlmResponse());
    assertFalse(before.hasStateDelta());

    CallbackResult after = results.get("2");
    assertEquals(Map.of("result.txt", Artifacts.textPart("{sky=sunny}")), after.getArtifactsMap());
    assertEquals(Values.toStruct(Map.of("ok", true)), after.getToolResponse());

    // A failed callback saves nothing: the run fails.
    assertEquals("IllegalStateException: broken", results.get("3").getError());
    assertEquals(0, results.get("3").getArtifactsCount());
    assertTrue(results.get("4").getError().contains("cannot return"), results.get("4").getError());
    assertEquals(0, results.get("4").getArtifactsCount());

    assertEquals("", results.get("5").getError());
    assertEquals(0, results.get("5").getArtifactsCount());
    assertEquals(Struct.getDefaultInstance(), results.get("5").getStateDelta());
  }
}
