module example.com/graphlcgo

go 1.26

require github.com/tmc/langchaingo v0.1.14

require (
	github.com/dlclark/regexp2 v1.10.0 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/pkoukk/tiktoken-go v0.1.6 // indirect
	go.starlark.net v0.0.0-20230302034142-4b1e35fe2254 // indirect
	golang.org/x/sys v0.35.0 // indirect
)

require example.com/shapes v0.0.0

replace example.com/shapes => ../shapes
