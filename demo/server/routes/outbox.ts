import type { FastifyInstance } from 'fastify';
import { OutboxMailer } from '../lib/mailer';

const escape = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * Demo mode without SMTP: GET /demo/outbox lists the newest mail written to the outbox, so a person
 * trying the demo can follow a reset link. (Never mounted outside demo mode.)
 */
export async function outboxRoutes(app: FastifyInstance): Promise<void> {
  const { mailer } = app.services;
  app.get('/demo/outbox', async (_request, reply) => {
    const entries = mailer instanceof OutboxMailer ? await mailer.recent() : null;
    const rows =
      entries === null
        ? '<p>Mail goes out over SMTP (SMTP_URL is set): there is no outbox to show.</p>'
        : entries.length === 0
          ? '<p>No mail yet. Ask for a reset link on the forgot-password screen, then reload this page.</p>'
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
}
