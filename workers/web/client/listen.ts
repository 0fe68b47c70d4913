// The listener pages' script (workers/listeners/pages): the copy button and the flo's drag-and-drop.
// Everything else on those pages is a plain form; without this script they still work, and the
// flo is reordered with its move up and move down buttons (docs/listeners.md "Listener pages").

/** Copies the value of the input a `data-copy` button names; the button is hidden until this script runs. */
function enableCopy(button: HTMLButtonElement): void {
  const input = document.getElementById(button.dataset.copy ?? "");
  if (!(input instanceof HTMLInputElement)) return;
  const status = document.getElementById("copy-status");
  button.hidden = false;
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(input.value);
    } catch {
      // No Clipboard API (an older browser or a denied permission): the selection is copied instead.
      input.select();
      if (!document.execCommand("copy")) {
        if (status) status.textContent = "Select the URL and copy it yourself.";
        return;
      }
    }
    if (status) status.textContent = "Feed URL copied.";
  });
}

/** The flo list `list` as its article slugs, in the order shown. */
function orderOf(list: HTMLOListElement): string[] {
  return [...list.querySelectorAll<HTMLLIElement>(":scope > li")].map((li) => li.dataset.slug ?? "");
}

/** Disables move up on the first item and move down on the last, as the server renders them. */
function refreshButtons(list: HTMLOListElement): void {
  const items = [...list.querySelectorAll<HTMLLIElement>(":scope > li")];
  items.forEach((li, i) => {
    const [up, down] = li.querySelectorAll("button");
    up.disabled = i === 0;
    down.disabled = i === items.length - 1;
  });
}

/** Persists the list's order as the block's manual_order, with the session's form token. */
async function saveOrder(list: HTMLOListElement): Promise<void> {
  const status = document.getElementById("order-status");
  const csrf = list.querySelector<HTMLInputElement>('input[name="csrf"]')?.value ?? "";
  const body = new URLSearchParams({ csrf, block: list.dataset.block ?? "" });
  for (const slug of orderOf(list)) body.append("order", slug);
  const res = await fetch("/listen/flo/order", { method: "POST", body, headers: { Accept: "application/json" }, credentials: "same-origin" }).catch(() => null);
  if (status) status.textContent = res?.ok ? "Order saved." : "The order could not be saved. Reload the page and try again.";
}

function enableFlo(list: HTMLOListElement): void {
  let dragged: HTMLLIElement | null = null;
  let before: string[] = [];
  for (const li of list.querySelectorAll<HTMLLIElement>(":scope > li")) {
    li.draggable = true;
    li.addEventListener("dragstart", (event) => {
      dragged = li;
      before = orderOf(list);
      li.classList.add("dragging");
      event.dataTransfer?.setData("text/plain", li.dataset.slug ?? "");
      if (event.dataTransfer) event.dataTransfer.effectAllowed = "move";
    });
    li.addEventListener("dragover", (event) => {
      if (!dragged || dragged === li) return;
      event.preventDefault();
      const box = li.getBoundingClientRect();
      // Above the middle of the item: the dragged one goes before it; below: after it.
      if (event.clientY < box.top + box.height / 2) li.before(dragged);
      else li.after(dragged);
    });
    li.addEventListener("drop", (event) => event.preventDefault());
    li.addEventListener("dragend", () => {
      li.classList.remove("dragging");
      dragged = null;
      refreshButtons(list);
      if (orderOf(list).join("\n") !== before.join("\n")) void saveOrder(list);
    });
  }
  // The move buttons: the same change without a page load, keeping the focus on the moved item.
  list.addEventListener("submit", (event) => {
    const form = event.target as HTMLFormElement;
    const li = form.closest("li");
    const direction = (form.elements.namedItem("direction") as HTMLInputElement | null)?.value;
    if (!li || !direction) return;
    event.preventDefault();
    const sibling = direction === "up" ? li.previousElementSibling : li.nextElementSibling;
    if (!sibling) return;
    if (direction === "up") sibling.before(li);
    else sibling.after(li);
    refreshButtons(list);
    const same = li.querySelector<HTMLButtonElement>(direction === "up" ? "button" : "form:last-of-type button");
    const other = li.querySelector<HTMLButtonElement>(direction === "up" ? "form:last-of-type button" : "button");
    (same && !same.disabled ? same : other)?.focus();
    void saveOrder(list);
  });
}

for (const button of document.querySelectorAll<HTMLButtonElement>("button[data-copy]")) enableCopy(button);
for (const list of document.querySelectorAll<HTMLOListElement>("ol.flo[data-block]")) enableFlo(list);
