// The HTML the authorization endpoint shows a person: the login page (pick a demo account)
// and an error page for requests that cannot be answered by redirect. Every interpolated
// value goes through escapeHtml: client ids, redirect URIs and states come from the request.
import type { Role } from '../data/store';
import type { DemoAccount } from './accounts';

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character);
}

const ROLE_LABELS: Record<Role, string> = {
  office: 'Büro (office)',
  trainer: 'Ausbilder/in (trainer)',
  member: 'Mitglied (member)',
};

const STYLE = `
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 44rem; padding: 0 1rem; color: #222; }
h1 { font-size: 1.5rem; }
table { border-collapse: collapse; width: 100%; margin: 1rem 0; }
th, td { text-align: left; padding: .4rem .6rem; border-bottom: 1px solid #ddd; }
tr.hint { background: #fff6d6; }
button { font: inherit; padding: .3rem .9rem; cursor: pointer; }
.error { color: #a00000; }
.muted { color: #666; font-size: .9rem; }`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="de">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} – Vorort-Sandbox</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

export interface LoginPageContent {
  clientName: string;
  organisationName: string;
  scope: string;
  accounts: readonly DemoAccount[];
  /** The account named by login_hint, highlighted. */
  hintedUserId: string | undefined;
  /** The authorization request, sent back unchanged with the choice. */
  hiddenFields: ReadonlyArray<readonly [name: string, value: string]>;
}

export function renderLoginPage(content: LoginPageContent): string {
  const hidden = content.hiddenFields
    .map(
      ([name, value]) =>
        `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`,
    )
    .join('\n');
  const rows = content.accounts
    .map((account) => {
      const hinted = account.userId === content.hintedUserId ? ' class="hint"' : '';
      return `<tr${hinted}><td>${escapeHtml(account.name)}</td><td>${escapeHtml(ROLE_LABELS[account.role])}</td>
<td><button type="submit" name="user_id" value="${escapeHtml(account.userId)}">Anmelden</button></td></tr>`;
    })
    .join('\n');
  const organisation = content.organisationName
    ? ` bei <strong>${escapeHtml(content.organisationName)}</strong>`
    : '';
  return page(
    'Anmelden',
    `<h1>Anmelden</h1>
<p><strong>${escapeHtml(content.clientName)}</strong> möchte in Ihrem Namen auf Ihre Daten${organisation} zugreifen.</p>
<p class="muted">Berechtigungen: ${escapeHtml(content.scope)}</p>
<p>Dies ist die Sandbox: wählen Sie ein Demo-Konto, ohne Passwort.</p>
<form method="post" action="/oauth/v1/authorize">
${hidden}
<table>
<thead><tr><th>Name</th><th>Rolle</th><th></th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
<button type="submit" name="action" value="deny">Abbrechen</button>
</form>`,
  );
}

export function renderErrorPage(message: string): string {
  return page(
    'Anmeldung nicht möglich',
    `<h1>Anmeldung nicht möglich</h1>
<p class="error">${escapeHtml(message)}</p>`,
  );
}
