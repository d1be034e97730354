/** Fastify's own mark for a plugin's name (what `fastify-plugin` sets from its `name` option). */
export const DISPLAY_NAME = Symbol.for('fastify.display-name');

/**
 * Every plugin registered on `app` (or on an instance made from it) gets its function's name as
 * its display name, unless it has one. Without one, Fastify names a plugin (for its errors and
 * `printPlugins`) by looking for it among the exports of every CommonJS module loaded
 * (`Object.keys(require.cache)`, twice per `register`): with the service's dependencies loaded,
 * that was a large share of the time and garbage of building an app (start-up, and every test
 * file's app). Our plugins are named functions, never a module's whole
 * export, so the name is the same. Instances made by `register` inherit the root's `register`, so
 * this covers every level. Canary: fastify-plugin-names.test.ts.
 */
export function nameEveryPlugin(app: { register: (...args: never[]) => unknown }): void {
  const register = app.register;
  app.register = function (this: unknown, plugin: unknown, ...rest: unknown[]) {
    if (typeof plugin === 'function' && !(DISPLAY_NAME in plugin)) {
      Object.defineProperty(plugin, DISPLAY_NAME, { value: plugin.name || 'anonymous' });
    }
    return (register as (...args: unknown[]) => unknown).call(this, plugin, ...rest);
  } as typeof register;
}
