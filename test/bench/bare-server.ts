/**
 * The bare Fastify route the server's throughput is compared with: the same Fastify, the same logger
 * setting (`LOG_LEVEL`, as the identity server reads it), the same Node flags and environment, one
 * route answering a small JSON object — what no route of ours can beat.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: { level: process.env.LOG_LEVEL ?? 'info' } });
app.get('/bare', async () => ({ status: 'ok' }));
app.get('/healthz', async () => ({ status: 'ok' }));
await app.listen({ port: Number(process.env.PORT ?? 0), host: process.env.HOST ?? 'localhost' });
const stop = () => void app.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
