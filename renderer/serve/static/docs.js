// Interactive docs: Swagger UI (npm swagger-ui-dist, served by this server at /docs/assets)
// on /openapi.json. "Authorize" takes the bearer token when the server has one.
"use strict";

if (typeof window.SwaggerUIBundle === "function") {
  window.SwaggerUIBundle({ url: "/openapi.json", dom_id: "#swagger-ui", deepLinking: true });
} else {
  document.getElementById("docs-missing").hidden = false;
}
