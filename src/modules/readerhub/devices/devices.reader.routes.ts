import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createdOrFound } from '../../../shared/envelopes.js';
import { route } from '../../../shared/http/route.js';
import { dataOf } from '../../../shared/schemas.js';
import { readerhubTags } from '../readerhub.tags.js';
import { toReaderDevice } from './devices.mappers.js';
import { deviceRegisterBody, deviceSchema } from './devices.schemas.js';
import type { DevicesService } from './devices.service.js';

export const devicesReaderRoutes: FastifyPluginAsyncZod<{ devices: DevicesService }> = async (app, { devices }) => {
  route(app, {
    method: 'POST',
    url: '/devices',
    operationId: 'readerRegisterDevice',
    summary: 'Register a device',
    description:
      'Idempotent by push token: a new token answers 201, a known one 200 with the same device, now ' +
      'belonging to the signed-in reader (a shared device follows whoever signed in last).',
    tag: readerhubTags.readerDevices,
    access: { scope: 'account:write', readerRequired: true },
    body: deviceRegisterBody,
    response: { 200: dataOf(deviceSchema), 201: dataOf(deviceSchema) },
    handler: async (ctx, { body }, reply) =>
      createdOrFound(reply, await devices.register(ctx, reply.request.readerAccount, body), toReaderDevice),
  });
};
