// Seed data the benchmarks write straight into the local D1 file (SQL through scripts/local.mjs executeSql).

/**
 * SQL for `items` narrated public articles of `vertical`: slugs `<slugPrefix>-<vertical>-<n>`, titles
 * `<title> <n> about <vertical>`, audio rows only (a feed reads sizes, not bytes); `prefix` keeps the
 * audio keys of two seeds apart.
 */
export function narratedArticlesSql({ vertical, items, prefix, slugPrefix, title, createdFrom }) {
  const key = `printf('${prefix}%063d', i)`;
  const rows = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${items})`;
  return `
${rows} INSERT INTO audio_objects (key, provider, voice, duration_seconds, mp3_bytes, opus_bytes)
  SELECT ${key}, 'bench', 'bench', 180.5 + i, 2900000 + i, 1400000 + i FROM n;
${rows} INSERT INTO articles (slug, title, publisher, vertical, summary, body_text, content_hash, audio_key, created_at)
  SELECT '${slugPrefix}-${vertical}-' || i, '${title} ' || i || ' about ${vertical}', 'Bench Times', '${vertical}',
    'A summary of ${title.toLowerCase()} ' || i || ', long enough to look like the real thing in a feed reader.',
    'Body of a ${title.toLowerCase()}.', '${slugPrefix}-hash-${vertical}-' || i, ${key}, ${createdFrom} + i * 60000 FROM n;
`;
}
