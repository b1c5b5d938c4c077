package dev.agentsvc.client;

import dev.agentsvc.v1.ListSessionsRequest;
import dev.agentsvc.v1.ListSessionsResponse;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Function;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * The pages of one ListSessions listing, fetched one at a time as they are consumed: the first
 * with the request as given, each next one with the previous page's {@code next_page_token},
 * until a page carries none.
 */
final class SessionListPages implements Iterator<ListSessionsResponse> {
  private final Function<ListSessionsRequest, ListSessionsResponse> fetch;
  private ListSessionsRequest next;
  private ListSessionsResponse page;

  SessionListPages(
      ListSessionsRequest first, Function<ListSessionsRequest, ListSessionsResponse> fetch) {
    Objects.requireNonNull(first, "request");
    if (first.getPageSize() < 0) {
      throw new IllegalArgumentException("page_size must not be negative: " + first.getPageSize());
    }
    // Without a page size the service would answer every session at once.
    this.next = first.getPageSize() > 0
        ? first
        : first.toBuilder().setPageSize(SessionPages.DEFAULT_PAGE_SIZE).build();
    this.fetch = fetch;
  }

  /** Returns the pages as a lazy, sequential stream: no call is made before it is consumed. */
  static Stream<ListSessionsResponse> stream(
      ListSessionsRequest first, Function<ListSessionsRequest, ListSessionsResponse> fetch) {
    SessionListPages pages = new SessionListPages(first, fetch);
    return StreamSupport.stream(
        Spliterators.spliteratorUnknownSize(pages, Spliterator.ORDERED | Spliterator.NONNULL),
        false);
  }

  @Override
  public boolean hasNext() {
    if (page == null && next != null) {
      ListSessionsRequest sent = next;
      page = fetch.apply(sent);
      String token = page.getNextPageToken();
      if (token.isEmpty()) {
        next = null;
      } else if (token.equals(sent.getPageToken())) {
        // A listing always moves on; one that does not would never end.
        next = null;
        page = null;
        throw new IllegalStateException("the service answered page token " + token + " with itself");
      } else {
        next = sent.toBuilder().setPageToken(token).build();
      }
    }
    return page != null;
  }

  @Override
  public ListSessionsResponse next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    ListSessionsResponse p = page;
    page = null;
    return p;
  }
}
