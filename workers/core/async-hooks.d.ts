// The one Node API the Worker uses (nodejs_compat provides it in workerd); the project does not load
// @types/node, whose globals would type the Worker as a Node process.
declare module "node:async_hooks" {
  export class AsyncLocalStorage<T> {
    run<R>(store: T, callback: () => R): R;
    getStore(): T | undefined;
  }
}
