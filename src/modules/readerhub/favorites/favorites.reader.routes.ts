import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { list, one } from '../../../shared/envelopes.js';
import { dataOf, errorResponses, idParams, listOf, noContent } from '../../../shared/schemas.js';
import { toReaderFavorite } from './favorites.mappers.js';
import { favoriteCreateBody, favoriteSchema, favoritesQuery } from './favorites.schemas.js';
import type { FavoritesService } from './favorites.service.js';

const tags = ['Reader: Favorites'];

/** /api/media/v1/accounts/me/favorites: contents and profiles the reader keeps. */
export const favoritesReaderRoutes: FastifyPluginAsyncZod<{ favorites: FavoritesService }> = async (app, { favorites }) => {
  app.get('/accounts/me/favorites', {
    config: { scope: 'account:read', readerRequired: true },
    schema: {
      tags,
      summary: 'List favorites',
      description: "The signed-in reader's favorites, newest first; `kind` keeps one kind.",
      querystring: favoritesQuery,
      response: { 200: listOf(favoriteSchema), ...errorResponses(400, 401, 403, 404, 429) },
    },
    handler: async (req) => list(req, await favorites.list(req.readerAccount, req.query), toReaderFavorite),
  });

  app.post('/accounts/me/favorites', {
    config: { scope: 'account:write', readerRequired: true },
    schema: {
      tags,
      summary: 'Add a favorite',
      description: 'Idempotent: a new favorite answers 201, one the reader has already 200 with that favorite.',
      body: favoriteCreateBody,
      response: { 200: dataOf(favoriteSchema), 201: dataOf(favoriteSchema), ...errorResponses(400, 401, 403, 404, 413, 415, 429) },
    },
    handler: async (req, reply) => {
      const { row, created } = await favorites.add(req.readerAccount, req.body);
      return reply.status(created ? 201 : 200).send(one(toReaderFavorite(row)));
    },
  });

  app.delete('/accounts/me/favorites/:id', {
    config: { scope: 'account:write', readerRequired: true },
    schema: {
      tags,
      summary: 'Remove a favorite',
      description: 'Another reader\'s favorite, or one removed already, is a 404.',
      params: idParams,
      response: { 204: noContent, ...errorResponses(400, 401, 403, 404, 429) },
    },
    handler: async (req, reply) => {
      await favorites.remove(req.readerAccount, req.params.id);
      return reply.status(204).send();
    },
  });
};
