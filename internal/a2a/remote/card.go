package remote

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/a2aproject/a2a-go/a2a"
)

// MaxResponseBytes bounds every response a remote agent reads: its card
// and each answer.
const MaxResponseBytes = 8 << 20

// errTooLarge reports a response past MaxResponseBytes.
var errTooLarge = errors.New("response larger than the limit")

func checkCardURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("agent_card: %q is not an http or https URL", raw)
	}
	return nil
}

// fetchCard reads the card at cardURL and checks its RPC URLs as ADK's
// _validate_card_rpc_targets does: https, or http on a loopback host, and
// the card's own origin.
func fetchCard(ctx context.Context, client *http.Client, cardURL string) (*a2a.AgentCard, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, cardURL, nil)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("Failed to resolve AgentCard from URL %s: %w", cardURL, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("Failed to resolve AgentCard from URL %s: HTTP %d", cardURL, resp.StatusCode)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("Failed to resolve AgentCard from URL %s: %w", cardURL, err)
	}
	card := &a2a.AgentCard{}
	if err := json.Unmarshal(body, card); err != nil {
		return nil, fmt.Errorf("Failed to resolve AgentCard from URL %s: %w", cardURL, err)
	}
	if card.URL == "" {
		return nil, errors.New("Agent card must have a valid URL for RPC communication")
	}
	src, _ := url.Parse(cardURL)
	urls := []string{card.URL}
	for _, i := range card.AdditionalInterfaces {
		urls = append(urls, i.URL)
	}
	for _, raw := range urls {
		u, err := url.Parse(raw)
		if err != nil || u.Scheme == "" || u.Host == "" {
			return nil, fmt.Errorf("Invalid RPC URL in agent card: %s", raw)
		}
		if !strings.EqualFold(u.Scheme, "https") && !loopback(u.Hostname()) {
			return nil, fmt.Errorf("Agent card RPC URL must use https, or http on a loopback host: %s", raw)
		}
		if origin(u) != origin(src) {
			return nil, fmt.Errorf("Agent card RPC URL must have the same origin as the location the card was fetched from (%s): %s", cardURL, raw)
		}
	}
	return card, nil
}

func loopback(host string) bool {
	host = strings.ToLower(strings.Trim(host, "[]"))
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func origin(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)]
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Hostname()) + ":" + port
}

// limitedTransport fails reading a response body past max bytes.
type limitedTransport struct {
	next http.RoundTripper
	max  int64
}

func (t limitedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	resp.Body = &limitedBody{r: resp.Body, left: t.max}
	return resp, nil
}

type limitedBody struct {
	r    io.ReadCloser
	left int64
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		// A body of exactly the limit ends here; one byte more is too much.
		var one [1]byte
		if n, err := b.r.Read(one[:]); n > 0 {
			return 0, errTooLarge
		} else if err != nil {
			return 0, err
		}
		return 0, nil
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.r.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *limitedBody) Close() error { return b.r.Close() }
