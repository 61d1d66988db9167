// The web page of readermode serve: a form, one POST /v1/extract, and the answer shown.
// Page text is only ever set as text (textContent), except the article's HTML, which the
// server's sanitiser (nh3) wrote; the page's Content-Security-Policy backs that up.
"use strict";

const $ = (id) => document.getElementById(id);

function headers() {
  const h = { "Content-Type": "application/json" };
  const token = $("token").value.trim();
  if (token) h.Authorization = `Bearer ${token}`;
  return h;
}

async function call(path, body) {
  const response = await fetch(path, { method: "POST", headers: headers(), body: JSON.stringify(body) });
  let data = null;
  try { data = await response.json(); } catch (e) { /* not JSON: said below */ }
  if (!response.ok) {
    const error = (data && data.error) || { kind: `HTTP ${response.status}`, message: response.statusText };
    throw new Error(`${error.kind}: ${error.message}`);
  }
  return data;
}

function showError(message) {
  $("error").textContent = message;
  $("error").hidden = false;
  $("status").textContent = "";
}

function rows(table, pairs) {
  table.replaceChildren();
  for (const cells of pairs) {
    const tr = table.insertRow();
    for (const cell of cells) tr.insertCell().textContent = cell == null ? "—" : String(cell);
  }
}

const METADATA = ["url", "title", "author", "date_published", "date_modified", "site_name", "lang",
  "description", "image", "tags", "categories", "canonical_url", "page_type"];

function show(data) {
  $("title").textContent = data.title || "(no title)";
  const words = (data.text || "").split(/\s+/).filter(Boolean).length;
  $("summary").textContent = `${words} words · stage ${data.stage} · ${data.page_type}` +
    (data.warnings.length ? ` · ${data.warnings.join("; ")}` : "");
  $("tab-article").innerHTML = data.html;  // sanitised by the server (nh3 allowlist)
  $("tab-markdown").textContent = data.markdown;
  rows($("tab-metadata"), METADATA.map((name) => [name, Array.isArray(data[name]) ? data[name].join(", ") : data[name]]));
  rows($("tab-trace"), [["kind", "name", "outcome", "reason", "count", "words", "excerpt"]].concat(
    data.trace.map((t) => [t.kind, t.name, t.outcome, t.reason, t.count, t.words, t.excerpt])));
  if (data.screenshot) $("shot").src = `data:image/png;base64,${data.screenshot}`;
  else $("shot").removeAttribute("src");
  $("result").hidden = false;
}

function request() {
  const body = { formats: ["json"], render: $("render").checked, include_comments: $("comments").checked };
  if ($("screenshot").checked) body.formats.push("screenshot");
  const url = $("url").value.trim();
  const html = $("html").value;
  if (url) body.url = url;
  if (html.trim()) body.html = html;
  return body;
}

async function extract(event) {
  event.preventDefault();
  $("error").hidden = true;
  $("status").textContent = "Reading the page…";
  try {
    show(await call("/v1/extract", request()));
    $("status").textContent = "Done.";
  } catch (error) {
    $("result").hidden = true;
    showError(error.message);
  }
}

async function compare() {
  $("error").hidden = true;
  $("status").textContent = "Comparing with Reader View…";
  try {
    const data = await call("/v1/compare", { url: $("url").value.trim() });
    const scores = data.comparison.scores;
    $("report-link").href = data.report_url;
    $("report-scores").textContent = `F1 ${scores.f1} (precision ${scores.precision}, recall ${scores.recall})`;
    const report = await fetch(data.report_url, { headers: headers() });
    $("report-frame").srcdoc = await report.text();  // sandboxed: nothing in it runs
    $("report").hidden = false;
    $("status").textContent = "Done.";
  } catch (error) {
    showError(error.message);
  }
}

function tabs(event) {
  const name = event.target.dataset.tab;
  if (!name) return;
  for (const button of document.querySelectorAll(".tabs button")) button.classList.toggle("active", button === event.target);
  for (const tab of document.querySelectorAll(".tab")) tab.hidden = tab.id !== `tab-${name}`;
}

async function banner() {
  const response = await fetch("/v1/info", { headers: headers() });
  if (response.ok) $("private-banner").hidden = !(await response.json()).allow_private;
}

document.addEventListener("DOMContentLoaded", () => {
  $("extract-form").addEventListener("submit", extract);
  $("compare").addEventListener("click", compare);
  document.querySelector(".tabs").addEventListener("click", tabs);
  $("token").addEventListener("change", banner);
  banner();
});
