// Search as you type on the home page (docs/web.md "Web front-end"): GET /v1/stories/search after a short
// pause in typing; each result links to its article page. The latest answer wins, older ones are dropped.
const form = document.querySelector<HTMLFormElement>("[data-search]");
if (form) setUp(form);

const DEBOUNCE_MS = 200;

/** The snippet's text with its <mark> runs: the API escapes the text and adds only <mark> tags. */
function snippetNodes(snippet: string): Node[] {
  const decode = document.createElement("textarea");
  return snippet.split(/(<mark>.*?<\/mark>)/).map((part) => {
    const marked = /^<mark>(.*)<\/mark>$/.exec(part);
    decode.innerHTML = marked ? marked[1] : part;
    if (!marked) return document.createTextNode(decode.value);
    const mark = document.createElement("mark");
    mark.textContent = decode.value;
    return mark;
  });
}

interface Result {
  slug: string;
  title: string;
  publisher: string;
  snippet: string;
}

function setUp(form: HTMLFormElement): void {
  const input = form.querySelector<HTMLInputElement>("input[name=q]")!;
  const results = document.querySelector<HTMLOListElement>("[data-search-results]")!;
  const status = document.querySelector<HTMLElement>("[data-search-status]")!;
  const api = form.dataset.api!;
  form.hidden = false;
  let timer: number | undefined;
  let latest = 0;

  const show = (list: Result[], query: string) => {
    results.replaceChildren(
      ...list.map((r) => {
        const li = document.createElement("li");
        const a = document.createElement("a");
        a.href = `/articles/${encodeURIComponent(r.slug)}`;
        a.textContent = r.title;
        const meta = document.createElement("span");
        meta.className = "muted";
        meta.textContent = ` ${r.publisher}`;
        const snippet = document.createElement("p");
        snippet.className = "snippet";
        snippet.append(...snippetNodes(r.snippet));
        li.append(a, meta, snippet);
        return li;
      }),
    );
    status.textContent = query ? `${list.length} result${list.length === 1 ? "" : "s"} for ${query}` : "";
    status.classList.add("visually-hidden");
  };

  /**
   * A search that could not be answered says so where the results would be, instead of an empty list
   * that reads as "nothing found": the status line, shown (it is otherwise for screen readers only).
   */
  const unanswered = (message: string) => {
    results.replaceChildren();
    status.textContent = message;
    status.classList.remove("visually-hidden");
  };

  /** What a refused search says: a 429 waits Retry-After seconds (the API's per-address read budget). */
  const refusal = (res: Response): string => {
    if (res.status !== 429) return "Search is unavailable right now. Try again in a moment.";
    const wait = Number(res.headers.get("Retry-After"));
    const when = Number.isFinite(wait) && wait > 0 ? `in ${wait} second${wait === 1 ? "" : "s"}` : "in a minute";
    return `Too many searches from your address just now: try again ${when}.`;
  };

  const search = async () => {
    const query = input.value.trim();
    const ticket = ++latest;
    if (!query) return show([], "");
    try {
      const res = await fetch(`${api}/v1/stories/search?${new URLSearchParams({ q: query, limit: "10", expand: "false" })}`);
      if (!res.ok) {
        if (ticket === latest) unanswered(refusal(res));
        return;
      }
      const body = (await res.json()) as { results: Result[] };
      if (ticket === latest) show(body.results, query);
    } catch {
      if (ticket === latest) unanswered("Search is unavailable right now. Try again in a moment.");
    }
  };

  form.addEventListener("submit", (e) => {
    e.preventDefault();
    void search();
  });
  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = window.setTimeout(search, DEBOUNCE_MS);
  });
}
