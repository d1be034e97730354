import Fastify, { type FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { DISPLAY_NAME, nameEveryPlugin } from './fastify-plugin-names.js';

describe('nameEveryPlugin (canary: Fastify names a plugin by its display-name symbol)', () => {
  it('Fastify itself reads the symbol: a plugin that carries it is named by it', async () => {
    const app = Fastify();
    let name: string | undefined;
    const plugin = async (scope: FastifyInstance) => {
      name = scope.pluginName;
    };
    Object.defineProperty(plugin, DISPLAY_NAME, { value: 'canary-display-name' });
    await app.register(plugin);
    await app.ready();
    // Should a Fastify release stop reading the symbol, this fails and the tweak does nothing.
    expect(name).toBe('canary-display-name');
    await app.close();
  });

  it('gives every plugin registered at any level its function name, and keeps a name already given', async () => {
    const app = Fastify();
    nameEveryPlugin(app as unknown as { register: (...args: never[]) => unknown });
    const names: string[] = [];
    async function innerAreaRoutes(scope: FastifyInstance) {
      names.push(scope.pluginName);
    }
    const named = async (scope: FastifyInstance) => {
      names.push(scope.pluginName);
    };
    Object.defineProperty(named, DISPLAY_NAME, { value: 'kept-name' });
    await app.register(async function outerArea(scope) {
      names.push(scope.pluginName);
      await scope.register(innerAreaRoutes);
      await scope.register(named);
    });
    await app.ready();
    expect(names).toEqual(['outerArea', 'innerAreaRoutes', 'kept-name']);
    expect((innerAreaRoutes as unknown as Record<symbol, string>)[DISPLAY_NAME]).toBe('innerAreaRoutes');
    await app.close();
  });
});
