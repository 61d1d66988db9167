// Interactive docs: each operation of /openapi.json with a form that sends it and shows the
// answer as text. Self-contained (no CDN): these machines and many deployments have no internet.
"use strict";

function element(tag, text, attributes = {}) {
  const node = document.createElement(tag);
  if (text != null) node.textContent = text;
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}

const EXAMPLES = {
  "/v1/extract": { url: "https://example.com/", formats: ["markdown"] },
  "/v1/compare": { url: "https://example.com/" },
  "/v1/batch": { urls: ["https://example.com/"], formats: ["text"] },
};

async function send(method, path, body, output) {
  const headers = {};
  const token = document.getElementById("token").value.trim();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (method === "POST") headers["Content-Type"] = "application/json";
  const response = await fetch(path, { method, headers, body: method === "POST" ? body : undefined });
  output.textContent = `${response.status} ${response.headers.get("content-type") || ""}\n\n${await response.text()}`;
}

function operation(path, method, op) {
  const box = element("section");
  box.append(element("h2", `${method.toUpperCase()} ${path}`), element("p", op.summary));
  for (const parameter of op.parameters || []) {
    box.append(element("p", `${parameter.in} ${parameter.name}: ${parameter.description || parameter.schema.type}`));
  }
  const target = element("input", null, { value: path === "/{url}" ? "/https://example.com/" : path, size: 60 });
  const body = element("textarea", null, { rows: 4, cols: 60 });
  body.value = EXAMPLES[path] ? JSON.stringify(EXAMPLES[path], null, 1) : "";
  const output = element("pre");
  const button = element("button", "Send", { type: "button" });
  button.addEventListener("click", () => send(method.toUpperCase(), target.value, body.value, output)
    .catch((error) => { output.textContent = String(error); }));
  box.append(target, ...(method === "post" ? [body] : []), button, output);
  return box;
}

document.addEventListener("DOMContentLoaded", async () => {
  const spec = await (await fetch("/openapi.json")).json();
  const list = document.getElementById("endpoints");
  for (const [path, methods] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(methods)) list.append(operation(path, method, op));
  }
});
