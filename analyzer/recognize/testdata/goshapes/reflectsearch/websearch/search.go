// Package websearch holds search tools shaped like github.com/smallnest/goskills@v0.3.5
// tool/tavily_tool.go:15-80 and tool/web_search_tool.go:16-60: plain package functions taking
// the query text (no context: they use context.Background()) and returning the results as
// text beside an error.
package websearch

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
)

// TavilySearch searches the web with the Tavily API.
func TavilySearch(query string) (string, error) {
	key := os.Getenv("TAVILY_API_KEY")
	if key == "" {
		return "", fmt.Errorf("TAVILY_API_KEY environment variable is not set")
	}
	return get("https://api.tavily.com/search?q="+url.QueryEscape(query), key)
}

// DuckDuckGoSearch searches the web with DuckDuckGo.
func DuckDuckGoSearch(query string) (string, error) {
	return get("https://api.duckduckgo.com/?format=json&q="+url.QueryEscape(query), "")
}

func get(u, key string) (string, error) {
	req, err := http.NewRequestWithContext(context.Background(), "GET", u, nil)
	if err != nil {
		return "", err
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", err
	}
	return string(body), nil
}
