import { ApiError } from './client';

/**
 * What a refused call says: its status (0: no answer) and the server's `code` (a stable word the screen
 * translates), `field` (the request field it belongs to) and `message`.
 */
export function refusalOf(error: unknown): {
  status: number;
  code?: string;
  field?: string;
  message?: string;
} {
  if (!(error instanceof ApiError)) return { status: 0 };
  const body = (error.body && typeof error.body === 'object' ? error.body : {}) as Record<string, unknown>;
  const text = (key: string) => (typeof body[key] === 'string' ? (body[key] as string) : undefined);
  return { status: error.status, code: text('code'), field: text('field'), message: text('message') };
}
