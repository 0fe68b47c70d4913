/** A duration as the player shows it: "m:ss", or "h:mm:ss" from an hour. */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

/**
 * The same duration in words, for screen readers ("3 minutes 5 seconds"), in `language` as Intl
 * writes its units ("3 Minuten 5 Sekunden").
 */
export function spokenDuration(seconds: number, language = "en"): string {
  const s = Math.max(0, Math.round(Number.isFinite(seconds) ? seconds : 0));
  const unit = (n: number, name: "hour" | "minute" | "second") => new Intl.NumberFormat(language, { style: "unit", unit: name, unitDisplay: "long" }).format(n);
  const parts: string[] = [];
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (h) parts.push(unit(h, "hour"));
  if (m) parts.push(unit(m, "minute"));
  if (s % 60 || !parts.length) parts.push(unit(s % 60, "second"));
  return parts.join(" ");
}
