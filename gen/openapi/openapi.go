// Package openapi embeds the OpenAPI document generated from the agentsvc
// protos.
package openapi

import _ "embed"

// JSON is the OpenAPI (Swagger 2.0) document of the REST API.
//
//go:embed agentsvc.swagger.json
var JSON []byte
