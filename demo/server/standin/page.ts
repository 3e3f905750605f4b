import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The stand-ins' pages load nothing: their styles are inline and a script runs only by the nonce its
 * page names. Forms may post to another origin (the portal) and follow its redirect onwards, which
 * browsers hold to `form-action` too.
 */
export const STANDIN_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http: https:";

/** A posted form (url-encoded), at most 16 KiB. */
export async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 16 * 1024) throw new Error('form too large');
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** A stand-in's page: its title and body (already escaped), never cached. */
export function standInPage(res: ServerResponse, title: string, body: string, csp = STANDIN_CSP) {
  res.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': csp,
    'cache-control': 'no-store',
  });
  res.end(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title><style>body{font-family:system-ui,sans-serif;max-width:26rem;margin:3rem auto;padding:0 1rem;color:#1b2430}label{display:block;font-weight:600;margin:1rem 0 .25rem}input{font:inherit;width:100%;padding:.5rem;box-sizing:border-box}button{font:inherit;margin-top:1rem;padding:.5rem 1rem}code{background:#eef}</style></head><body>${body}</body></html>`,
  );
}
