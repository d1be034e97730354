import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createdOrFound, list } from '../../../shared/envelopes.js';
import { route } from '../../../shared/http/route.js';
import { dataOf, idParams, listOf, noContent } from '../../../shared/schemas.js';
import { readerhubTags } from '../readerhub.tags.js';
import { toReaderFavorite } from './favorites.mappers.js';
import { favoriteCreateBody, favoriteSchema, favoritesQuery } from './favorites.schemas.js';
import type { FavoritesService } from './favorites.service.js';

const tag = readerhubTags.readerFavorites;

/** /api/media/v1/accounts/me/favorites: contents and profiles the reader keeps. */
export const favoritesReaderRoutes: FastifyPluginAsyncZod<{ favorites: FavoritesService }> = async (app, { favorites }) => {
  route(app, {
    method: 'GET',
    url: '/accounts/me/favorites',
    operationId: 'readerListFavorites',
    serves: 'favorite',
    primary: true,
    summary: 'List favorites',
    description: "The signed-in reader's favorites, newest first; `kind` keeps one kind.",
    tag,
    access: { scope: 'account:read', readerRequired: true },
    querystring: favoritesQuery,
    response: { 200: listOf(favoriteSchema) },
    handler: async (ctx, { query }, reply) =>
      list(reply.request, await favorites.list(ctx, reply.request.readerAccount, query), toReaderFavorite),
  });

  route(app, {
    method: 'POST',
    url: '/accounts/me/favorites',
    operationId: 'readerAddFavorite',
    summary: 'Add a favorite',
    description:
      'Idempotent: a new favorite answers 201, one the reader has already 200 with that favorite. A content must be one the reader may see (404 `content_not_found` otherwise).',
    tag,
    access: { scope: 'account:write', readerRequired: true },
    body: favoriteCreateBody,
    response: { 200: dataOf(favoriteSchema), 201: dataOf(favoriteSchema) },
    errors: [404],
    handler: async (ctx, { body }, reply) =>
      createdOrFound(reply, await favorites.add(ctx, reply.request.readerAccount, body), toReaderFavorite),
  });

  route(app, {
    method: 'DELETE',
    url: '/accounts/me/favorites/:id',
    operationId: 'readerRemoveFavorite',
    summary: 'Remove a favorite',
    description: "Another reader's favorite, or one removed already, is a 404.",
    tag,
    access: { scope: 'account:write', readerRequired: true },
    params: idParams,
    response: { 204: noContent },
    handler: async (ctx, { params }, reply) => favorites.remove(ctx, reply.request.readerAccount, params.id),
  });
};
