import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { one } from '../../../shared/envelopes.js';
import { dataOf, errorResponses } from '../../../shared/schemas.js';
import { toReaderAccount, toReaderProfile, toUserInfo } from './accounts.mappers.js';
import {
  metadataBody,
  metadataResponse,
  profileCreateBody,
  profileSchema,
  profileUpdateBody,
  readerAccountSchema,
  userInfoSchema,
} from './accounts.schemas.js';
import type { AccountsService } from './accounts.service.js';

/**
 * Verify oauth user: it links or creates the account itself, so that it can tell which
 * happened, and is therefore registered outside the account-linking hook.
 */
export const verifyReaderRoutes: FastifyPluginAsyncZod<{ accounts: AccountsService }> = async (app, { accounts }) => {
  app.post('/oauth/verify', {
    // account:read: verifying only links the token's identity, it changes nothing the reader chose.
    config: { scope: 'account:read', readerRequired: true },
    schema: {
      tags: ['Reader: OAuth'],
      summary: 'Verify oauth user',
      description:
        'Checks the identity provider token (as every Reader route does) and links it to its reader account, ' +
        'creating the account on first sign-in (201) or refreshing e-mail and name from the token (200).',
      response: { 200: dataOf(readerAccountSchema), 201: dataOf(readerAccountSchema), ...errorResponses(400, 401, 403, 404, 429) },
    },
    handler: async (req, reply) => {
      const { row, created } = await accounts.verify(req.bearer);
      return reply.status(created ? 201 : 200).send(one(toReaderAccount(row)));
    },
  });
};

/**
 * The signed-in reader's account: User info, the profile (a person) and its metadata.
 * `req.readerAccount` is linked or created before each handler runs.
 */
export const accountsReaderRoutes: FastifyPluginAsyncZod<{ accounts: AccountsService }> = async (app, { accounts }) => {
  app.get('/oauth/userinfo', {
    config: { scope: 'account:read', readerRequired: true },
    schema: {
      tags: ['Reader: OAuth'],
      summary: 'User info',
      description: "The signed-in reader's account and the scopes of the presented token.",
      response: { 200: dataOf(userInfoSchema), ...errorResponses(400, 401, 403, 404, 429) },
    },
    handler: async (req) => one(toUserInfo(req.readerAccount, req.bearer.scopes)),
  });

  const tags = ['Reader: Accounts'];

  app.post('/accounts/me/profile', {
    config: { scope: 'account:write', readerRequired: true },
    schema: {
      tags,
      summary: 'Create the reader profile',
      description: 'A reader has at most one profile: a second create is a 409 reader_profile_exists.',
      body: profileCreateBody,
      response: { 201: dataOf(profileSchema), ...errorResponses(400, 401, 403, 404, 409, 413, 415, 429) },
    },
    handler: async (req, reply) =>
      reply.status(201).send(one(toReaderProfile(await accounts.createProfile(req.readerAccount, req.body)))),
  });

  app.get('/accounts/me/profile', {
    config: { scope: 'account:read', readerRequired: true },
    schema: {
      tags,
      summary: 'The reader profile',
      response: { 200: dataOf(profileSchema), ...errorResponses(400, 401, 403, 404, 429) },
    },
    handler: async (req) => one(toReaderProfile(await accounts.getProfile(req.readerAccount))),
  });

  app.patch('/accounts/me/profile', {
    config: { scope: 'account:write', readerRequired: true },
    schema: {
      tags,
      summary: 'Update the reader profile',
      description: 'Fields left out keep their value; null clears one. Metadata is replaced with PUT .../metadata.',
      body: profileUpdateBody,
      response: { 200: dataOf(profileSchema), ...errorResponses(400, 401, 403, 404, 413, 415, 429) },
    },
    handler: async (req) => one(toReaderProfile(await accounts.updateProfile(req.readerAccount, req.body))),
  });

  app.get('/accounts/me/profile/metadata', {
    config: { scope: 'account:read', readerRequired: true },
    schema: {
      tags,
      summary: 'The reader profile metadata',
      description: '{key, value} pairs in the order they were last written.',
      response: { 200: metadataResponse, ...errorResponses(400, 401, 403, 404, 429) },
    },
    handler: async (req) => one(await accounts.getMetadata(req.readerAccount)),
  });

  app.put('/accounts/me/profile/metadata', {
    config: { scope: 'account:write', readerRequired: true },
    schema: {
      tags,
      summary: 'Replace the reader profile metadata',
      description: 'The body is the complete set of pairs (keys unique, at most 50); an empty list removes them all.',
      body: metadataBody,
      response: { 200: metadataResponse, ...errorResponses(400, 401, 403, 404, 413, 415, 429) },
    },
    handler: async (req) => one(await accounts.replaceMetadata(req.readerAccount, req.body.metadata)),
  });
};
