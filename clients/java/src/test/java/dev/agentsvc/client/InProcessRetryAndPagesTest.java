package dev.agentsvc.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.agentsvc.v1.ConnectRequest;
import dev.agentsvc.v1.ConnectResponse;
import dev.agentsvc.v1.Event;
import dev.agentsvc.v1.GetSessionRequest;
import dev.agentsvc.v1.GetSessionResponse;
import dev.agentsvc.v1.ListSessionsRequest;
import dev.agentsvc.v1.ListSessionsResponse;
import dev.agentsvc.v1.RunDone;
import dev.agentsvc.v1.RunRequest;
import dev.agentsvc.v1.RunResponse;
import dev.agentsvc.v1.Session;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Request ids on runs and GetSession pages, against an in-process fake of the service. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class InProcessRetryAndPagesTest {
  private FakeAgentsvc fake;
  private AgentsvcClient client;

  @BeforeEach
  void start() throws Exception {
    fake = new FakeAgentsvc();
    client = fake.client();
  }

  @AfterEach
  void stop() throws Exception {
    client.close();
    fake.close();
  }

  @Test
  void newRequestIdsAreFreshAndFitTheServiceLimit() {
    String a = AgentsvcClient.newRequestId();
    String b = AgentsvcClient.newRequestId();
    assertNotEquals(a, b);
    assertTrue(a.length() <= 128 && a.chars().allMatch(c -> c > 0x20 && c < 0x7f), a);
  }

  @Test
  void runPassesTheRequestIdOn() {
    BlockingQueue<RunRequest> seen = new LinkedBlockingQueue<>();
    fake.run = (req, out) -> {
      seen.add(req);
      out.onNext(RunResponse.newBuilder().setEvent(InProcessRunTest.text("ok").getEvent()).build());
      out.onCompleted();
    };
    collect(client.run("echo", "u", "s", "hi", "req-1"));
    collect(client.run("echo", "u", "s", "hi", (String) null));
    collect(client.run("echo", "u", "s", "hi"));
    RunRequest full = RunRequest.newBuilder().setAppName("echo").setUserId("u").setSessionId("s")
        .setNewMessage(Contents.userText("hi")).setRequestId("req-2").build();
    collect(client.run(full));
    collect(client.run(full));

    List<String> ids = new ArrayList<>();
    seen.forEach(r -> ids.add(r.getRequestId()));
    assertEquals(List.of("req-1", "", "", "req-2", "req-2"), ids);
    assertEquals("hi", seen.peek().getNewMessage().getParts(0).getText());
  }

  @Test
  void connectPassesTheRequestIdOnInItsStartMessage() {
    BlockingQueue<ConnectRequest> starts = new LinkedBlockingQueue<>();
    fake.connect = out -> new StreamObserver<>() {
      @Override
      public void onNext(ConnectRequest r) {
        if (r.hasStart()) {
          starts.add(r);
          out.onNext(InProcessRunTest.text("ok"));
          out.onNext(ConnectResponse.newBuilder()
              .setDone(RunDone.newBuilder().setInvocationId("e-1")).build());
        }
      }

      @Override
      public void onError(Throwable t) {}

      @Override
      public void onCompleted() {
        out.onCompleted();
      }
    };
    FunctionTool tool = FunctionTool.builder("t").handler((a, c) -> null).build();
    collect(client.run("weather", "u", "s", "hi", "req-3", List.of(tool)));
    collect(client.run("weather", "u", "s", "hi", List.of(tool)));
    RunRequest full = RunRequest.newBuilder().setAppName("weather").setUserId("u")
        .setSessionId("s").setNewMessage(Contents.userText("hi")).setRequestId("req-4").build();
    collect(client.run(full, List.of(tool)));

    List<String> ids = new ArrayList<>();
    starts.forEach(r -> ids.add(r.getStart().getRun().getRequestId()));
    assertEquals(List.of("req-3", "", "req-4"), ids);
  }

  /** Serves a session of n events in pages whose token is the next index, recording requests. */
  private List<GetSessionRequest> servePages(int n) {
    List<Event> events = IntStream.range(0, n)
        .mapToObj(i -> Event.newBuilder().setId("ev-" + i).build()).toList();
    List<GetSessionRequest> requests = Collections.synchronizedList(new ArrayList<>());
    fake.getSession = (req, out) -> {
      requests.add(req);
      Session.Builder s = Session.newBuilder().setId(req.getSessionId());
      GetSessionResponse.Builder resp = GetSessionResponse.newBuilder();
      if (req.getPageSize() == 0 && req.getPageToken().isEmpty()) {
        out.onNext(resp.setSession(s.addAllEvents(events)).build());
        out.onCompleted();
        return;
      }
      int from = req.getPageToken().isEmpty() ? 0 : Integer.parseInt(req.getPageToken());
      int to = Math.min(n, from + (req.getPageSize() > 0 ? req.getPageSize() : 100));
      resp.setSession(s.addAllEvents(events.subList(from, to)));
      if (to < n) {
        resp.setNextPageToken(Integer.toString(to));
      }
      out.onNext(resp.build());
      out.onCompleted();
    };
    return requests;
  }

  private static List<String> ids(Stream<Event> events) {
    try (events) {
      return events.map(Event::getId).toList();
    }
  }

  private static List<String> expectedIds(int from, int to) {
    return IntStream.range(from, to).mapToObj(i -> "ev-" + i).toList();
  }

  @Test
  void getSessionPageExposesTheNextPageToken() {
    List<GetSessionRequest> requests = servePages(5);
    GetSessionResponse first = client.getSessionPage("app", "u", "s", 2, null);
    assertEquals(List.of("ev-0", "ev-1"), ids(first.getSession().getEventsList().stream()));
    assertEquals("2", first.getNextPageToken());
    GetSessionResponse last = client.getSessionPage("app", "u", "s", 3, first.getNextPageToken());
    assertEquals(List.of("ev-2", "ev-3", "ev-4"), ids(last.getSession().getEventsList().stream()));
    assertEquals("", last.getNextPageToken());
    assertEquals(List.of("", "2"), requests.stream().map(GetSessionRequest::getPageToken).toList());

    // Page size 0 asks for the service's default page, never the whole session.
    client.getSessionPage("app", "u", "s", 0, "");
    assertEquals(100, requests.get(2).getPageSize());
    // A page request through getSession returns that page's events.
    Session page = client.getSession(GetSessionRequest.newBuilder().setAppName("app")
        .setUserId("u").setSessionId("s").setPageSize(1).setPageToken("4").build());
    assertEquals(List.of("ev-4"), ids(page.getEventsList().stream()));
  }

  @Test
  void sessionEventsReadsEveryPageLazilyInOrder() {
    List<GetSessionRequest> requests = servePages(7);
    Stream<Event> events = client.sessionEvents(GetSessionRequest.newBuilder()
        .setAppName("app").setUserId("u").setSessionId("s").setPageSize(3).build());
    assertEquals(0, requests.size(), "no call before the stream is consumed");
    assertEquals(expectedIds(0, 7), ids(events));
    assertEquals(List.of("", "3", "6"), requests.stream().map(GetSessionRequest::getPageToken).toList());
    assertTrue(requests.stream().allMatch(r -> r.getPageSize() == 3 && r.getSessionId().equals("s")));

    // A stream cut short reads only the pages it needs.
    requests.clear();
    try (Stream<Event> firstFour = client.sessionEvents(GetSessionRequest.newBuilder()
        .setAppName("app").setUserId("u").setSessionId("s").setPageSize(2).build())) {
      assertEquals(expectedIds(0, 4), firstFour.limit(4).map(Event::getId).toList());
    }
    assertEquals(2, requests.size());

    // The plain form pages by the service's default, and a token given starts the listing there.
    requests.clear();
    assertEquals(expectedIds(0, 7), ids(client.sessionEvents("app", "u", "s")));
    assertEquals(100, requests.get(0).getPageSize());
    assertEquals(expectedIds(5, 7), ids(client.sessionEvents(GetSessionRequest.newBuilder()
        .setAppName("app").setUserId("u").setSessionId("s").setPageSize(1).setPageToken("5")
        .build())));

    List<GetSessionResponse> pages;
    try (Stream<GetSessionResponse> s = client.sessionPages(GetSessionRequest.newBuilder()
        .setAppName("app").setUserId("u").setSessionId("s").setPageSize(3).build())) {
      pages = s.toList();
    }
    assertEquals(List.of("3", "6", ""), pages.stream().map(GetSessionResponse::getNextPageToken).toList());
  }

  @Test
  void sessionEventsOfAnEmptySessionAndFailures() {
    servePages(0);
    assertEquals(List.of(), ids(client.sessionEvents("app", "u", "s")));
    assertThrows(IllegalArgumentException.class, () -> client.sessionEvents(
        GetSessionRequest.newBuilder().setAppName("app").setPageSize(-1).build()));

    // A page that fails throws its exception from the stream, after the pages before it.
    List<String> seen = new ArrayList<>();
    fake.getSession = (req, out) -> {
      if (!req.getPageToken().isEmpty()) {
        out.onError(AgentsvcExceptionTest.status(
            Status.Code.INVALID_ARGUMENT, "INVALID_ARGUMENT", "page_token is not a valid token"));
        return;
      }
      out.onNext(GetSessionResponse.newBuilder()
          .setSession(Session.newBuilder().addEvents(Event.newBuilder().setId("ev-0")))
          .setNextPageToken("bad").build());
      out.onCompleted();
    };
    InvalidArgumentException e = assertThrows(InvalidArgumentException.class,
        () -> client.sessionEvents("app", "u", "s").forEach(ev -> seen.add(ev.getId())));
    assertEquals("page_token is not a valid token", e.getMessage());
    assertEquals(List.of("ev-0"), seen);

    // A service that answers a token with itself would loop forever: the stream stops.
    fake.getSession = (req, out) -> {
      out.onNext(GetSessionResponse.newBuilder().setNextPageToken("same").build());
      out.onCompleted();
    };
    assertThrows(IllegalStateException.class, () -> client.sessionEvents(
        GetSessionRequest.newBuilder().setAppName("app").setPageSize(1).setPageToken("same")
            .build()).count());
  }

  private static List<Event> collect(Invocation run) {
    try (run) {
      return run.stream().toList();
    }
  }

  /** Serves n sessions in pages the way the service does; the token is the next position. */
  private List<ListSessionsRequest> serveSessionList(int n) {
    List<ListSessionsRequest> requests = Collections.synchronizedList(new ArrayList<>());
    fake.listSessions = (req, out) -> {
      requests.add(req);
      if (req.getPageToken().equals("bad")) {
        out.onError(Status.INVALID_ARGUMENT.withDescription("page_token is not valid").asRuntimeException());
        return;
      }
      int from = req.getPageToken().isEmpty() ? 0 : Integer.parseInt(req.getPageToken());
      int to = req.getPageSize() == 0 ? n : Math.min(n, from + req.getPageSize());
      ListSessionsResponse.Builder resp = ListSessionsResponse.newBuilder();
      IntStream.range(from, to).forEach(i -> resp.addSessions(Session.newBuilder().setId("s" + i)));
      if (to < n) {
        resp.setNextPageToken(Integer.toString(to));
      }
      out.onNext(resp.build());
      out.onCompleted();
    };
    return requests;
  }

  @Test
  void userSessionsReadsEveryPageLazilyInOrder() {
    List<ListSessionsRequest> requests = serveSessionList(5);
    assertEquals(List.of("s0", "s1", "s2", "s3", "s4"),
        client.listSessions("app", "u").stream().map(Session::getId).toList());
    assertEquals(0, requests.get(0).getPageSize());

    requests.clear();
    ListSessionsResponse page = client.listSessionsPage("app", "u", 2, "2");
    assertEquals(List.of("s2", "s3"), page.getSessionsList().stream().map(Session::getId).toList());
    assertEquals("4", page.getNextPageToken());

    requests.clear();
    assertEquals(List.of("s0", "s1", "s2", "s3", "s4"),
        client.sessionListPages(ListSessionsRequest.newBuilder().setAppName("app").setUserId("u")
                .setPageSize(2).build())
            .flatMap(p -> p.getSessionsList().stream()).map(Session::getId).toList());
    assertEquals(List.of("", "2", "4"),
        requests.stream().map(ListSessionsRequest::getPageToken).toList());

    // Pages of 100 by default, read as the stream is consumed.
    requests.clear();
    try (Stream<Session> s = client.userSessions("app", "u")) {
      assertEquals("s0", s.findFirst().orElseThrow().getId());
    }
    assertEquals(1, requests.size());
    assertEquals(100, requests.get(0).getPageSize());

    assertThrows(InvalidArgumentException.class, () -> client.listSessionsPage("app", "u", 2, "bad"));
  }
}
