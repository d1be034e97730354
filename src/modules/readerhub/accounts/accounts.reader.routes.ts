import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createdOrFound, one } from '../../../shared/envelopes.js';
import { route } from '../../../shared/http/route.js';
import { dataOf } from '../../../shared/schemas.js';
import { readerhubTags } from '../readerhub.tags.js';
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
  route(app, {
    method: 'POST',
    url: '/oauth/verify',
    operationId: 'readerVerifyUser',
    summary: 'Verify oauth user',
    description:
      'Checks the identity provider token (as every Reader route does) and links it to its reader account, ' +
      'creating the account on first sign-in (201) or refreshing e-mail and name from the token (200).',
    tag: readerhubTags.readerOAuth,
    // account:read: verifying only links the token's identity, it changes nothing the reader chose.
    access: { scope: 'account:read', readerRequired: true },
    response: { 200: dataOf(readerAccountSchema), 201: dataOf(readerAccountSchema) },
    handler: async (ctx, _input, reply) => createdOrFound(reply, await accounts.verify(ctx), toReaderAccount),
  });
};

/**
 * The signed-in reader's account: User info, the profile (a person) and its metadata.
 * `req.readerAccount` is linked or created before each handler runs.
 */
export const accountsReaderRoutes: FastifyPluginAsyncZod<{ accounts: AccountsService }> = async (app, { accounts }) => {
  route(app, {
    method: 'GET',
    url: '/oauth/userinfo',
    operationId: 'readerGetUserInfo',
    serves: 'userinfo',
    primary: true,
    summary: 'User info',
    description: "The signed-in reader's account and the scopes of the presented token.",
    tag: readerhubTags.readerOAuth,
    access: { scope: 'account:read', readerRequired: true },
    response: { 200: dataOf(userInfoSchema) },
    handler: async (_ctx, _input, reply) => one(toUserInfo(reply.request.readerAccount, reply.request.bearer.scopes)),
  });

  const tag = readerhubTags.readerAccounts;

  route(app, {
    method: 'POST',
    url: '/accounts/me/profile',
    operationId: 'readerCreateProfile',
    summary: 'Create the reader profile',
    description: 'A reader has at most one profile: a second create is a 409 reader_profile_exists.',
    tag,
    access: { scope: 'account:write', readerRequired: true },
    body: profileCreateBody,
    response: { 201: dataOf(profileSchema) },
    errors: [409],
    handler: async (ctx, { body }, reply) =>
      one(toReaderProfile(await accounts.createProfile(ctx, reply.request.readerAccount, body))),
  });

  route(app, {
    method: 'GET',
    url: '/accounts/me/profile',
    operationId: 'readerGetProfile',
    serves: 'profile',
    primary: true,
    summary: 'The reader profile',
    tag,
    access: { scope: 'account:read', readerRequired: true },
    response: { 200: dataOf(profileSchema) },
    handler: async (ctx, _input, reply) => one(toReaderProfile(await accounts.getProfile(ctx, reply.request.readerAccount))),
  });

  route(app, {
    method: 'PATCH',
    url: '/accounts/me/profile',
    operationId: 'readerUpdateProfile',
    summary: 'Update the reader profile',
    description: 'Fields left out keep their value; null clears one. Metadata is replaced with PUT .../metadata.',
    tag,
    access: { scope: 'account:write', readerRequired: true },
    body: profileUpdateBody,
    response: { 200: dataOf(profileSchema) },
    handler: async (ctx, { body }, reply) =>
      one(toReaderProfile(await accounts.updateProfile(ctx, reply.request.readerAccount, body))),
  });

  route(app, {
    method: 'GET',
    url: '/accounts/me/profile/metadata',
    operationId: 'readerGetProfileMetadata',
    serves: 'metadata',
    primary: true,
    summary: 'The reader profile metadata',
    description: '{key, value} pairs in the order they were last written.',
    tag,
    access: { scope: 'account:read', readerRequired: true },
    response: { 200: metadataResponse },
    handler: async (ctx, _input, reply) => one(await accounts.getMetadata(ctx, reply.request.readerAccount)),
  });

  route(app, {
    method: 'PUT',
    url: '/accounts/me/profile/metadata',
    operationId: 'readerReplaceProfileMetadata',
    summary: 'Replace the reader profile metadata',
    description: 'The body is the complete set of pairs (keys unique, at most 50); an empty list removes them all.',
    tag,
    access: { scope: 'account:write', readerRequired: true },
    body: metadataBody,
    response: { 200: metadataResponse },
    handler: async (ctx, { body }, reply) =>
      one(await accounts.replaceMetadata(ctx, reply.request.readerAccount, body.metadata)),
  });
};
