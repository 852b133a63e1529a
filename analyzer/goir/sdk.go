package goir

import (
	"regexp"
	"strings"
)

// sdkMethods are well-known provider SDK methods of Go, by profile key, with the name a map
// shows (ir.Call.Provider): extra evidence for a model call, the shape decides. Keys are
// matched with any /vN major-version suffix removed.
var sdkMethods = map[string]string{
	"github.com/openai/openai-go.ChatCompletionService.New":               "openai-go Chat.Completions.New",
	"github.com/openai/openai-go.ChatCompletionService.NewStreaming":      "openai-go Chat.Completions.NewStreaming",
	"github.com/openai/openai-go/responses.ResponseService.New":           "openai-go Responses.New",
	"github.com/openai/openai-go/responses.ResponseService.NewStreaming":  "openai-go Responses.NewStreaming",
	"github.com/anthropics/anthropic-sdk-go.MessageService.New":           "anthropic-sdk-go Messages.New",
	"github.com/anthropics/anthropic-sdk-go.MessageService.NewStreaming":  "anthropic-sdk-go Messages.NewStreaming",
	"google.golang.org/genai.Models.GenerateContent":                      "genai Models.GenerateContent",
	"google.golang.org/genai.Models.GenerateContentStream":                "genai Models.GenerateContentStream",
	"google.golang.org/genai.Chat.SendMessage":                            "genai Chat.SendMessage",
	"github.com/ollama/ollama/api.Client.Chat":                            "ollama api.Client.Chat",
	"github.com/ollama/ollama/api.Client.Generate":                        "ollama api.Client.Generate",
	"github.com/sashabaranov/go-openai.Client.CreateChatCompletion":       "go-openai CreateChatCompletion",
	"github.com/sashabaranov/go-openai.Client.CreateChatCompletionStream": "go-openai CreateChatCompletionStream",
	"net/http.Client.Do": "http.Client.Do (a model API request)",
}

var majorVersion = regexp.MustCompile(`/v[0-9]+(/|\.|$)`)

// provider is the name of the provider SDK method with profile key key, or "".
func provider(key string) string {
	k := majorVersion.ReplaceAllStringFunc(key, func(m string) string { return m[len(m)-1:] })
	k = strings.ReplaceAll(k, "..", ".")
	if name, ok := sdkMethods[k]; ok {
		return name
	}
	return sdkMethods[key]
}
