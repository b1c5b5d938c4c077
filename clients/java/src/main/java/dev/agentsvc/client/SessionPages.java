package dev.agentsvc.client;

import dev.agentsvc.v1.GetSessionRequest;
import dev.agentsvc.v1.GetSessionResponse;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Function;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * The pages of one GetSession listing, fetched one at a time as they are consumed: the first with
 * the request as given, each next one with the previous page's {@code next_page_token}, until a
 * page carries none.
 */
final class SessionPages implements Iterator<GetSessionResponse> {
  /** The page size asked for when the request names none; the service's own default. */
  static final int DEFAULT_PAGE_SIZE = 100;

  private final Function<GetSessionRequest, GetSessionResponse> fetch;
  private GetSessionRequest next;
  private GetSessionResponse page;

  SessionPages(GetSessionRequest first, Function<GetSessionRequest, GetSessionResponse> fetch) {
    Objects.requireNonNull(first, "request");
    if (first.getPageSize() < 0) {
      throw new IllegalArgumentException("page_size must not be negative: " + first.getPageSize());
    }
    // Without a page size the service would answer the whole session at once.
    this.next = first.getPageSize() > 0 ? first : first.toBuilder().setPageSize(DEFAULT_PAGE_SIZE).build();
    this.fetch = fetch;
  }

  /** Returns the pages as a lazy, sequential stream: no call is made before it is consumed. */
  static Stream<GetSessionResponse> stream(
      GetSessionRequest first, Function<GetSessionRequest, GetSessionResponse> fetch) {
    SessionPages pages = new SessionPages(first, fetch);
    return StreamSupport.stream(
        Spliterators.spliteratorUnknownSize(pages, Spliterator.ORDERED | Spliterator.NONNULL),
        false);
  }

  @Override
  public boolean hasNext() {
    if (page == null && next != null) {
      GetSessionRequest sent = next;
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
  public GetSessionResponse next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    GetSessionResponse p = page;
    page = null;
    return p;
  }
}
