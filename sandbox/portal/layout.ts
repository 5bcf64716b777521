import type { FastifyReply } from 'fastify';
import { html, SafeHtml } from './html';
import type { SignedIn } from './session';

const styles = `
body{font:15px/1.45 system-ui,sans-serif;margin:0;color:#1d2733;background:#f6f7f9}
header{background:#17324d;color:#fff;padding:.6rem 1.5rem;display:flex;gap:1.5rem;align-items:center}
header a{color:#fff;text-decoration:none}header a.active{text-decoration:underline}
header .who{margin-left:auto;display:flex;gap:.75rem;align-items:center}
main{max-width:72rem;margin:1.5rem auto;padding:0 1.5rem}
section{background:#fff;border:1px solid #dde2e8;border-radius:6px;padding:1rem 1.25rem;margin-bottom:1.25rem}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid #e6e9ee;vertical-align:top}
th{background:#f0f3f6;font-weight:600}label{display:block;margin:.4rem 0}
input[type=text],input[type=email],input[type=password],input[type=date],textarea,select{font:inherit;padding:.3rem .4rem;min-width:20rem}
button{font:inherit;padding:.35rem .9rem;border-radius:4px;border:1px solid #17324d;background:#17324d;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#17324d}button.danger{background:#a4262c;border-color:#a4262c}
.inline{display:inline}.tabs a{margin-right:1rem}.tabs a.active{font-weight:700}
.notice{background:#fff8db;border:1px solid #e5c95f;padding:.75rem 1rem;border-radius:6px}
.error{background:#fde7e9;border:1px solid #e3a0a6;padding:.75rem 1rem;border-radius:6px}
.secret{font-family:ui-monospace,monospace;background:#eef2f6;padding:.3rem .5rem;word-break:break-all;display:block}
.bad{color:#a4262c}.warn{color:#8a5a00}.muted{color:#5f6b7a}code{font-family:ui-monospace,monospace}
`;

export interface PageOptions {
  signedIn?: SignedIn | undefined;
  active?: 'entities' | 'partners' | 'authorizations' | undefined;
}

export function page(title: string, body: SafeHtml, opts: PageOptions = {}): SafeHtml {
  const nav = (href: string, key: PageOptions['active'], label: string): SafeHtml =>
    html`<a href="${href}" class="${opts.active === key ? 'active' : ''}">${label}</a>`;
  const user = opts.signedIn?.user;
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <title>${title} – Sandbox portal</title>
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <style>
          ${new SafeHtml(styles)}
        </style>
      </head>
      <body>
        <header>
          <strong>Submission Service sandbox</strong>
          ${
            user
              ? html`${nav('/portal/entities', 'entities', 'Entities')}
                  ${user.data_partner_id !== null ? nav('/portal/data-partners', 'partners', 'Data Partners') : ''}
                  ${nav('/portal/authorizations', 'authorizations', 'Authorized applications')}
                  <span class="who"
                    >${user.name} (${user.email})
                    <form class="inline" method="post" action="/portal/sign-out">
                      <input
                        type="hidden"
                        name="csrf_token"
                        value="${opts.signedIn?.session.csrfToken ?? ''}"
                      /><button class="secondary">Sign out</button>
                    </form></span
                  >`
              : ''
          }
        </header>
        <main>
          <h1>${title}</h1>
          ${body}
        </main>
      </body>
    </html>`;
}

/**
 * Pages carry codes and one-time secrets: never cached, never framed (the consent page must not
 * be clickjacked), no Referer to leak a code, and no scripts at all.
 */
export function sendPage(reply: FastifyReply, markup: SafeHtml, status = 200): FastifyReply {
  return (
    reply
      .code(status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .header('x-content-type-options', 'nosniff')
      .header('x-frame-options', 'DENY')
      // No form-action: Chromium applies it to the redirect after the consent form, which goes to
      // the application's own (loopback or private-scheme) URI.
      .header(
        'content-security-policy',
        "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      )
      .send(markup.value)
  );
}

export function csrfField(token: string): SafeHtml {
  return html`<input type="hidden" name="csrf_token" value="${token}" />`;
}
