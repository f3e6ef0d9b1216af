// Starts Swagger UI on this server's own document. A file rather than an inline script, so the
// page's Content-Security-Policy can forbid inline scripts (src/docs/docs-ui.ts).
window.addEventListener("load", () => {
  window.ui = window.SwaggerUIBundle({
    url: "openapi.json",
    dom_id: "#swagger-ui",
    presets: [window.SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    // The public validator badge would call another site.
    validatorUrl: null,
    deepLinking: true,
    displayRequestDuration: true,
  });
});
