module github.com/ptchost/ptc

go 1.26.0

require (
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/stretchr/testify v1.12.1
	github.com/tetratelabs/wazero v1.12.0
	go.uber.org/goleak v1.3.0
)

require (
	github.com/evanw/esbuild v0.28.2 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/sys v0.44.0 // indirect
	golang.org/x/text v0.44.0 // indirect
)
