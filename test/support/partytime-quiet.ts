// podcast-partytime's logger (pino) reads its level once, as it loads, and writes through Node's fs in
// a way workerd refuses. The validator reports problems itself, so the logger is silenced before it loads.
declare const process: { env: Record<string, string | undefined> };
process.env.PARTYTIME_LOG = "silent";
