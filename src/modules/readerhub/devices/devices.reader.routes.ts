import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { one } from '../../../shared/envelopes.js';
import { dataOf, errorResponses } from '../../../shared/schemas.js';
import { toReaderDevice } from './devices.mappers.js';
import { deviceRegisterBody, deviceSchema } from './devices.schemas.js';
import type { DevicesService } from './devices.service.js';

export const devicesReaderRoutes: FastifyPluginAsyncZod<{ devices: DevicesService }> = async (app, { devices }) => {
  app.post('/devices', {
    config: { scope: 'account:write', readerRequired: true },
    schema: {
      tags: ['Reader: Devices'],
      summary: 'Register a device',
      description:
        'Idempotent by push token: a new token answers 201, a known one 200 with the same device, now ' +
        "belonging to the signed-in reader (a shared device follows whoever signed in last).",
      body: deviceRegisterBody,
      response: { 200: dataOf(deviceSchema), 201: dataOf(deviceSchema), ...errorResponses(400, 401, 403, 404, 413, 415, 429) },
    },
    handler: async (req, reply) => {
      const { row, created } = await devices.register(req.readerAccount, req.body);
      return reply.status(created ? 201 : 200).send(one(toReaderDevice(row)));
    },
  });
};
