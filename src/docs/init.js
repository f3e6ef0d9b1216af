// Starts Swagger UI on this server's own document. A file rather than an inline script, so the
// page's Content-Security-Policy can forbid inline scripts (src/docs/docs-ui.ts).

// A parameter's examples in the document are requests the tests send, each named for the
// answer it gets (`after=10001` for "the page after 10001"). "Try it out" would offer them and
// fill the first one in: a filter that answers an empty page, an id chosen for a test. This
// page shows parameters without them, for the reader to fill; the document keeps them.
const withoutParameterExamples = (text) => {
  let document;
  try {
    document = JSON.parse(text);
  } catch {
    return text;
  }
  const strip = (parameters) => {
    for (const parameter of Array.isArray(parameters) ? parameters : []) {
      delete parameter.examples;
      delete parameter.example;
    }
  };
  for (const item of Object.values(document.paths ?? {})) {
    strip(item.parameters);
    for (const operation of Object.values(item)) strip(operation?.parameters);
  }
  strip(Object.values(document.components?.parameters ?? {}));
  return JSON.stringify(document);
};

window.addEventListener("load", () => {
  window.ui = window.SwaggerUIBundle({
    url: "openapi.json",
    dom_id: "#swagger-ui",
    presets: [window.SwaggerUIBundle.presets.apis],
    plugins: [
      () => ({
        statePlugins: {
          spec: {
            wrapActions: {
              updateSpec: (update) => (text) =>
                update(typeof text === "string" ? withoutParameterExamples(text) : text),
            },
          },
        },
      }),
    ],
    layout: "BaseLayout",
    // The public validator badge would call another site.
    validatorUrl: null,
    deepLinking: true,
    displayRequestDuration: true,
  });
});
