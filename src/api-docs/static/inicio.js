// Starts Swagger UI on this server's OpenAPI document. A file of its own (not an inline script):
// the page's Content-Security-Policy allows scripts from this server only.
window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/api/v1/openapi.json',
    dom_id: '#swagger-ui',
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    deepLinking: true,
    docExpansion: 'list',
    defaultModelsExpandDepth: -1,
    // The ApiKey typed in «Authorize» stays in this tab's memory: never written to localStorage.
    persistAuthorization: false,
    // No request leaves this server: Swagger UI would otherwise send the document to an online validator.
    validatorUrl: null,
    tryItOutEnabled: false,
  })
})
