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
	"os"
	"strconv"
	"strings"

	"github.com/a2aproject/a2a-go/a2a"
)

// MaxResponseBytes bounds every response a remote agent reads: its card
// and each answer.
const MaxResponseBytes = 8 << 20

// errTooLarge reports a response past MaxResponseBytes.
var errTooLarge = errors.New("response larger than the limit")

// isCardURL reports whether an agent_card names a URL rather than a file,
// as ADK tells them apart: by an http:// or https:// prefix.
func isCardURL(src string) bool {
	return strings.HasPrefix(src, "http://") || strings.HasPrefix(src, "https://")
}

// CheckAgentCard checks an agent_card: an http or https URL of a host, or
// a file path (relative to the working directory, as ADK reads it).
func CheckAgentCard(src string) error {
	switch {
	case src == "":
		return errors.New("agent_card: required")
	case strings.ContainsFunc(src, func(r rune) bool { return r < ' ' || r == 0x7f }):
		return errors.New("agent_card: holds a control character")
	case !isCardURL(src) && strings.Contains(src, "://"):
		return fmt.Errorf("agent_card: %q is not an http or https URL", src)
	case !isCardURL(src):
		return nil
	}
	if u, err := url.Parse(src); err != nil || u.Host == "" {
		return fmt.Errorf("agent_card: %q is not an http or https URL", src)
	}
	return nil
}

// card is what a remote agent reads of an agent card, of protocol 0.3
// (url, preferredTransport, additionalInterfaces) or 1.0
// (supportedInterfaces).
type card struct {
	Name                 string `json:"name"`
	Description          string `json:"description"`
	URL                  string `json:"url"`
	PreferredTransport   string `json:"preferredTransport"`
	ProtocolVersion      string `json:"protocolVersion"`
	AdditionalInterfaces []struct {
		URL       string `json:"url"`
		Transport string `json:"transport"`
	} `json:"additionalInterfaces"`
	SupportedInterfaces []cardInterface `json:"supportedInterfaces"`
	Capabilities        struct {
		Streaming bool `json:"streaming"`
	} `json:"capabilities"`
}

// cardInterface is an A2A 1.0 AgentInterface.
type cardInterface struct {
	URL             string `json:"url"`
	ProtocolBinding string `json:"protocolBinding"`
	ProtocolVersion string `json:"protocolVersion"`
	Tenant          string `json:"tenant,omitempty"`
}

// interfaces are the card's interfaces as a 1.0 card lists them: its
// supportedInterfaces, else (a 0.3 card) its url and additional interfaces
// at its protocolVersion (0.3.0 when unset), as a2a-sdk 1.x reads them.
func (c *card) interfaces() []cardInterface {
	if len(c.SupportedInterfaces) > 0 {
		return c.SupportedInterfaces
	}
	if c.URL == "" {
		return nil
	}
	version := c.ProtocolVersion
	if version == "" {
		version = "0.3.0"
	}
	binding := c.PreferredTransport
	if binding == "" {
		binding = string(a2a.TransportProtocolJSONRPC)
	}
	out := []cardInterface{{URL: c.URL, ProtocolBinding: binding, ProtocolVersion: version}}
	for _, i := range c.AdditionalInterfaces {
		out = append(out, cardInterface{URL: i.URL, ProtocolBinding: i.Transport, ProtocolVersion: version})
	}
	return out
}

// jsonRPCInterface picks the JSON-RPC interface a2a-sdk 1.x picks: the
// first of version 1.0, else the first above it, else the first of 0.3 or
// above, else the first without a version.
func (c *card) jsonRPCInterface() (cardInterface, bool) {
	var above, legacy, unversioned *cardInterface
	for _, i := range c.interfaces() {
		if i.ProtocolBinding != string(a2a.TransportProtocolJSONRPC) {
			continue
		}
		i := i
		if i.ProtocolVersion == "" {
			if unversioned == nil {
				unversioned = &i
			}
			continue
		}
		major, minor, ok := majorMinor(i.ProtocolVersion)
		switch {
		case !ok:
		case major == 1 && minor == 0:
			return i, true
		case major >= 1 && above == nil:
			above = &i
		case (major > 0 || minor >= 3) && legacy == nil:
			legacy = &i
		}
	}
	for _, i := range []*cardInterface{above, legacy, unversioned} {
		if i != nil {
			return *i, true
		}
	}
	return cardInterface{}, false
}

// legacy reports whether an interface speaks A2A 0.3 (a version at least
// 0.3 and below 1.0), as a2a-sdk's is_legacy_version tells.
func (i cardInterface) legacy() bool {
	major, minor, ok := majorMinor(i.ProtocolVersion)
	return ok && major == 0 && minor >= 3
}

// majorMinor parses the major and minor numbers of a version such as
// "1.0" or "0.3.0".
func majorMinor(v string) (int, int, bool) {
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return 0, 0, false
	}
	major, err1 := strconv.Atoi(parts[0])
	minor, err2 := strconv.Atoi(parts[1])
	return major, minor, err1 == nil && err2 == nil && major >= 0 && minor >= 0
}

// readCard reads the card an agent_card names: fetched from its URL, or
// read from its file, either at most MaxResponseBytes.
func readCard(ctx context.Context, client *http.Client, src string) (*card, error) {
	if !isCardURL(src) {
		return readCardFile(src)
	}
	return fetchCard(ctx, client, src)
}

// readCardFile reads a card from a file, whose RPC URLs are left to whoever
// wrote it, as ADK leaves them.
func readCardFile(path string) (*card, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("Failed to resolve AgentCard from file %s: %w", path, err) //nolint:staticcheck // ST1005: ADK's message, word for word.
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("Failed to resolve AgentCard from file %s: Path is not a file: %s", path, path) //nolint:staticcheck // ST1005: ADK's message, word for word.
	}
	body, err := io.ReadAll(&limitedBody{r: f, left: MaxResponseBytes})
	if err != nil {
		return nil, fmt.Errorf("Failed to resolve AgentCard from file %s: %w", path, err) //nolint:staticcheck // ST1005: ADK's message, word for word.
	}
	return decodeCard(body, "Invalid JSON in agent card file "+path)
}

// decodeCard decodes a card that has a JSON-RPC interface; a body that is
// no card fails with what, as ADK words it for the card's source.
func decodeCard(body []byte, what string) (*card, error) {
	c := &card{}
	if err := json.Unmarshal(body, c); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if _, ok := c.jsonRPCInterface(); !ok {
		return nil, errors.New("Agent card must have a valid URL for RPC communication")
	}
	return c, nil
}

// fetchCard reads the card at cardURL and checks its RPC URLs as ADK's
// _validate_card_rpc_targets does: https, or http on a loopback host, and
// the card's own origin.
func fetchCard(ctx context.Context, client *http.Client, cardURL string) (*card, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, cardURL, nil)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("Failed to resolve AgentCard from URL %s: %w", cardURL, err) //nolint:staticcheck // ST1005: ADK's message, word for word.
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("Failed to resolve AgentCard from URL %s: HTTP %d", cardURL, resp.StatusCode) //nolint:staticcheck // ST1005: ADK's message, word for word.
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("Failed to resolve AgentCard from URL %s: %w", cardURL, err) //nolint:staticcheck // ST1005: ADK's message, word for word.
	}
	c, err := decodeCard(body, "Failed to resolve AgentCard from URL "+cardURL)
	if err != nil {
		return nil, err
	}
	src, _ := url.Parse(cardURL)
	urls := []string{}
	if c.URL != "" {
		urls = append(urls, c.URL)
	}
	for _, i := range c.AdditionalInterfaces {
		urls = append(urls, i.URL)
	}
	for _, i := range c.SupportedInterfaces {
		urls = append(urls, i.URL)
	}
	for _, raw := range urls {
		u, err := url.Parse(raw)
		if err != nil || u.Scheme == "" || u.Host == "" {
			return nil, fmt.Errorf("Invalid RPC URL in agent card: %s", raw) //nolint:staticcheck // ST1005: ADK's message, word for word.
		}
		if !strings.EqualFold(u.Scheme, "https") && !loopback(u.Hostname()) {
			return nil, fmt.Errorf("Agent card RPC URL must use https, or http on a loopback host: %s", raw)
		}
		if origin(u) != origin(src) {
			return nil, fmt.Errorf("Agent card RPC URL must have the same origin as the location the card was fetched from (%s): %s", cardURL, raw)
		}
	}
	return c, nil
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
