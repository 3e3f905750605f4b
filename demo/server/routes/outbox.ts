import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { OutboxMailer } from '../lib/mailer';
import { outboxSchema } from '../../../src/contract/schemas/pages';

const escape = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * Whether the request comes straight from this machine. The page lists live reset links, so anyone who
 * can read it can take over any account: it is for the person running the demo on their own computer.
 * `request.ip` is the socket address (trustProxy is off, so X-Forwarded-For cannot fake it); a request
 * that passed through a proxy (which would make every visitor look local) is refused as well.
 */
export function isLocalCaller(request: FastifyRequest): boolean {
  if (request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined)
    return false;
  return LOOPBACK.has(request.ip);
}

/**
 * Demo mode without SMTP: GET /demo/outbox lists the newest mail written to the outbox, so a person
 * trying the demo can follow a reset or invitation link. Never mounted outside demo mode, and answered only to
 * loopback callers (anyone else gets the same 404 as an unknown address).
 */
export const outboxRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { mailer } = app.services;
  app.get('/demo/outbox', { config: { auth: 'none' }, schema: outboxSchema }, async (request, reply) => {
    if (!isLocalCaller(request)) return reply.code(404).send({ message: 'not found' });
    const entries = mailer instanceof OutboxMailer ? await mailer.recent() : null;
    const rows =
      entries === null
        ? '<p>Mail goes out over SMTP (SMTP_URL is set): there is no outbox to show.</p>'
        : entries.length === 0
          ? '<p>No mail yet. Ask for a reset link on the forgot-password screen, or invite someone on the team screen, then reload this page.</p>'
          : `<ol class="outbox">${entries
              .map(
                (e) =>
                  `<li><p><strong>${escape(e.subject)}</strong></p><p>To ${escape(e.to)} · <time datetime="${escape(e.date)}">${escape(e.date)}</time> · ${escape(e.file)}</p>${
                    e.link ? `<p><a href="${escape(e.link)}">${escape(e.link)}</a></p>` : ''
                  }</li>`,
              )
              .join('')}</ol>`;
    const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Demo outbox</title><link rel="stylesheet" href="/demo/assets/outbox.css"></head><body><main><h1>Demo outbox</h1><p>The mail this demo server has written to <code>data/outbox/</code>, newest first.</p>${rows}</main></body></html>`;
    return reply.type('text/html; charset=utf-8').send(page);
  });
};
