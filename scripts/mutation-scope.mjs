// The modules `npm run mutation` (scripts/mutation.mjs) mutates: where a silent bug costs money, data
// or trust (issue 46). Each names the test files that cover it, run for every mutant (no other file
// runs, so a module is listed with the tests that state its rules, not the whole suite), and the
// mutants written down as equivalent: key (as the report prints it, line:column and operator) -> why
// no test can tell it from the original. A key that no longer matches a mutant is reported as stale.
// Test files that import only the module under test run in seconds a mutant; one that starts the whole
// Worker (a request through SELF) costs the loading of its module graph every time, so a module is
// listed with the unit tests that state its rules where they exist.
export const SCOPE = [
  // Credentials and sessions.
  { module: "workers/core/web-session.ts", tests: ["workers/core/sessions.test.ts", "workers/oauth/consent.test.ts", "workers/listeners/pages/pages.test.ts"] },
  { module: "workers/core/studio-session.ts", tests: ["workers/core/sessions.test.ts", "workers/studio/studio.test.ts"] },
  {
    module: "workers/core/crypto.ts",
    tests: ["workers/core/crypto.test.ts", "workers/listeners/credentials.test.ts", "workers/admin/publisher-keys.test.ts"],
    equivalent: {
      "20:114 false to true": "the HMAC key never leaves the function: extractable only lets exportKey read it, and nothing calls exportKey",
      "28:14 regex i added": "+ has no case",
      "29:14 regex i added": "/ has no case",
      "30:14 regex $ removed": "base64 has = only at its end, so every run of = is the padding",
      "30:14 regex i added": "= has no case",
    },
  },
  {
    module: "workers/kernel/listener-tokens.ts",
    tests: ["workers/kernel/listener-tokens.test.ts", "workers/listeners/credentials.test.ts", "workers/listeners/subscription.test.ts"],
    equivalent: {
      "27:15 config() skipped": "config() hands TOKEN_ENCRYPTION_KEY back as env holds it, and the text only names the cached key",
      "29:7 condition true": "the key is imported again from the same secret: the cache only saves work",
      "31:5 call removed": "nothing cached, each call imports the same key: the cache only saves work",
      "30:106 false to true": "the AES key never leaves the module: extractable only lets exportKey read it, and nothing calls exportKey",
    },
  },
  { module: "workers/oauth/bearer.ts", tests: ["workers/oauth/bearer.test.ts", "workers/oauth/oauth-flow.test.ts", "workers/agents/rest.test.ts"] },
  // OAuth and its fetcher.
  {
    module: "workers/oauth/client-metadata.ts",
    tests: ["workers/oauth/client-metadata.test.ts", "workers/oauth/client-metadata-fetch.test.ts"],
    equivalent: {
      "82:11 condition true":
        "guardedFetch (workers/kernel/guarded-fetch.ts) throws nothing but FetchRefused: every failure of the address, the fetch, a redirect, the status, the type and the body is one",
      "96:28 Number() skipped": "Math.max and Math.min turn the digits into a number themselves",
      "158:48 string emptied": "the allowance is read as present or not (!== null), never by its value",
      "178:5 call removed":
        "the provider's answer carries no Content-Length header in workerd (the runtime states the length of a body it sends), so there is none to delete today; it is deleted so that the longer body never goes out under a length the provider once stated",
      "178:20 string emptied": 'as 178:5: there is no Content-Length header to delete, and deleting the header named "" deletes nothing either',
      "175:56 .startsWith to .endsWith":
        "the provider answers the metadata at its exact path only (the issuer has no path), so the one successful answer whose path starts with it is the one whose path ends with it",
    },
  },
  {
    module: "workers/kernel/guarded-fetch.ts",
    tests: ["workers/kernel/guarded-fetch.test.ts", "workers/articles/links.test.ts", "workers/oauth/client-metadata-fetch.test.ts"],
    equivalent: {
      "53:85 regex i added": "127, dots and digits have no case",
      "62:12 .startsWith to .endsWith":
        "a URL's IPv6 host is bracketed hex and colons with no dot (the URL parser writes an embedded IPv4 in hex), so the single-label rule refuses it either way",
      "62:31 regex ^ removed":
        "a host whose last label is a number is parsed as IPv4 by the URL parser, so a name ending in four numbers never reaches here: it is an address or no URL",
      "62:31 regex i added": "dots and digits have no case",
      "63:29 regex i added": "a dot has no case",
      "123:35 && to ||": "readBodyBytes throws no ApiError but payload_too_large, and no other error it throws has that code",
    },
  },
  // x402 and the ledger.
  {
    module: "workers/agents/x402/paid-call.ts",
    tests: [
      "workers/agents/x402/paid-call.test.ts",
      "workers/agents/x402/receipt-time.test.ts",
      "workers/agents/x402/mcp-transport.test.ts",
      "workers/agents/x402/pay.test.ts",
      "workers/agents/x402/extensions.test.ts",
      "workers/agents/x402/payment-ids.security.test.ts",
    ],
    equivalent: {
      "146:18 BigInt() skipped":
        "validBefore is read only through Number() (payment-ids.ts forgetAt), which reads the authorization's decimal string as it reads the bigint",
    },
  },
  {
    module: "workers/agents/x402/ledger.ts",
    tests: ["workers/agents/x402/ledger.test.ts", "workers/agents/paid-tools.test.ts", "workers/admin/ledger-report.test.ts"],
  },
  { module: "workers/kernel/ledger-split.ts", tests: ["workers/listeners/plays.test.ts"] },
  // Render gating and rate limits.
  { module: "workers/narration/review-gate.ts", tests: ["workers/narration/review-gate.test.ts", "workers/studio/studio.test.ts"] },
  {
    module: "workers/core/rate-limit.ts",
    tests: ["workers/core/rate-limit.test.ts", "test/rate-limit.test.ts"],
    equivalent: {
      "87:7 condition false":
        "a grant of just the weight then leaves a lease of 0 units, which no call can spend from (held.left >= weight fails), so the next call asks the limiter as it does with none",
      // The sweep bounds the map's memory only. An expired lease is never spent from (now < held.until
      // fails) and is replaced by the next grant of its key, so whether and when expired leases leave
      // the map changes no decision; deleting a live one does, and "outlive a sweep" kills those mutants.
      "88:7 condition true": "sweeping on every miss deletes only expired leases, which no decision reads",
      "88:7 condition false": "never sweeping keeps expired leases, which no decision reads: memory only",
      "88:19 >= to >": "the sweep starts at 10,001 leases instead of 10,000: memory only",
      "88:19 >= to <": "sweeps below 10,000 leases and not above: only expired leases are deleted either way, memory only",
      "88:69 condition false": "the sweep deletes nothing: memory only",
      "88:81 <= to <": "a lease expiring this very millisecond is kept by the sweep: it is never spent from (now < until fails)",
      "88:89 call removed": "the sweep deletes nothing: memory only",
    },
  },
  {
    module: "workers/core/client-address.ts",
    tests: ["workers/core/client-address-key.test.ts"],
    equivalent: {
      "10:18 condition true": "ipv6Groups refuses text without a colon (eight groups need seven), so the guard only saves work",
      "10:35 string emptied": 'includes("") is always true: the same guard removed, as above',
      "24:18 regex i added": "the text is lower-cased before it is read, and digits, dots and colons have no case",
      "37:45 condition true": "without a :: the groups were already counted as exactly eight (missing is 0), so 0 more are filled in either way",
      "38:28 regex i added": "the text is lower-cased before its groups are read",
    },
  },
  // Content addresses and caches.
  {
    module: "workers/render/pipeline/cache-key.ts",
    tests: ["workers/render/pipeline/cache-key.test.ts", "workers/render/pipeline/paragraph-key.test.ts"],
  },
  {
    module: "workers/core/edge-cache.ts",
    tests: ["workers/core/edge-cache.test.ts"],
    equivalent: {
      "38:66 Number() skipped": "* turns the digits into a number itself",
    },
  },
  // Escaping of every page and feed.
  {
    module: "workers/core/text.ts",
    tests: ["workers/core/text.test.ts"],
    equivalent: {
      "9:17 regex i added": "a class of control characters and noncharacters: none has a case",
      "11:21 regex i added": "tab, LF and CR have no case",
      "20:48 regex i added": "CONTROL's class again: none of its characters has a case",
      "31:17 regex i added": "controls, noncharacters and surrogates have no case",
      "42:23 regex i added": "& < > \" ' have no case",
    },
  },
  {
    module: "workers/feeds/feed-page.ts",
    tests: ["workers/feeds/feed-page.test.ts"],
    equivalent: {
      "52:74 escapeHtml() skipped":
        "a medium date Intl formats has none of & < > \" ' (checked in 134 locales of ICU, three dates each); it is escaped as every text of the page is",
      "44:16 condition true": "new Date(undefined) is an invalid date, which the next line leaves out as it does a missing one",
      "72:64 escapeHtml() skipped": "the apps' names are the platform's own words (kernel/public-urls.ts podcastApps), none with a character to escape",
      "92:23 string emptied": "the page's Content-Type is set from PAGE_HEADERS right after, whatever the feed's was",
    },
  },
  {
    module: "workers/web/page-errors.ts",
    tests: ["workers/web/page-errors.test.ts", "workers/web/safe-next.test.ts", "test/route-security.test.ts"],
    equivalent: {
      "72:43 escapeHtml() skipped":
        "an embed's title is one of the platform's own words (TITLES), none with a character to escape; it is escaped as every text of a page is",
    },
  },
  // Range and conditional requests.
  {
    module: "workers/core/byte-ranges.ts",
    tests: ["workers/core/byte-ranges.test.ts"],
    equivalent: {
      "17:20 regex i added": "whitespace, a hyphen and digits have no case",
      "18:41 > to >=": "an empty body has no satisfiable range: range-parser answers -1 for any suffix of it, cut or not",
      "18:48 Number() skipped": "> with a number on one side compares the digits as a number anyway",
      "18:63 > to >=": "a suffix of exactly the size is replaced by the same suffix",
      "20:27 condition false": "a header without = is malformed either way: range-parser answers -2 before reading any spec",
      "61:45 String() skipped": "Headers.set() turns a number into the same decimal text",
      "66:39 String() skipped": "the same for the whole body's length",
    },
  },
  {
    module: "workers/core/conditional.ts",
    tests: ["workers/core/conditional.test.ts"],
    equivalent: {
      "34:14 condition true": 'without If-Modified-Since, Date.parse(null) reads "null", an invalid date, and no comparison with NaN holds',
      "61:14 condition true": "the same for If-Unmodified-Since: NaN fails every comparison, so nothing fails",
    },
  },
  // The lexicon.
  {
    module: "workers/kernel/lexicon.ts",
    tests: ["workers/kernel/lexicon.test.ts", "workers/kernel/lexicon-matching.test.ts"],
    equivalent: {
      "40:20 regex i added": "the class holds only punctuation, which has no case",
      "172:20 regex i added": "[ has no case",
      "60:81 < to <=":
        "mergeLexicons keeps one entry per grapheme (an own entry replaces the global one, and each list is unique by its index in workers/db/tables/lexicon.ts), so no two graphemes compare equal, and Array.prototype.sort reads only whether a comparison is below zero",
      "60:101 condition true":
        "mergeLexicons keeps one entry per grapheme (an own entry replaces the global one, and each list is unique by its index in workers/db/tables/lexicon.ts), so no two graphemes compare equal, and Array.prototype.sort reads only whether a comparison is below zero",
      "60:101 condition false":
        "mergeLexicons keeps one entry per grapheme (an own entry replaces the global one, and each list is unique by its index in workers/db/tables/lexicon.ts), so no two graphemes compare equal, and Array.prototype.sort reads only whether a comparison is below zero",
      "60:112 > to >=":
        "mergeLexicons keeps one entry per grapheme (an own entry replaces the global one, and each list is unique by its index in workers/db/tables/lexicon.ts), so no two graphemes compare equal, and Array.prototype.sort reads only whether a comparison is below zero",
      "60:112 > to <=":
        "mergeLexicons keeps one entry per grapheme (an own entry replaces the global one, and each list is unique by its index in workers/db/tables/lexicon.ts), so no two graphemes compare equal, and Array.prototype.sort reads only whether a comparison is below zero",
      "100:9 condition true":
        "an empty part pushed before a replacement starts where that replacement starts, and origin() takes the last part starting at or before the index: the replacement always wins",
      "100:16 > to >=": "the same empty part before a replacement, as above",
      "104:7 condition true":
        "an empty last part starts at the rewritten text's length, where no character is: origin() is asked for characters (a word's first one, workers/render/engine/offline.ts), so it never reads that part",
      "104:10 < to <=": "the same empty last part, as above",
      "135:10 condition false":
        "rewrite() with no entries has no pattern, so no replacement, and gives the text back through the identity: the shortcut only saves work",
      "58:7 condition false": "matcher() is null only when no entry is usable, and the filter over no entries gives [] whatever the text matched",
    },
  },
];
