// GET /oauth/v1/authorize shows the login page (or, with auto-approve, logs in at once);
// POST /oauth/v1/authorize is that page's form: it issues the code and redirects back. With an
// approval secret (the app's demo), both answer only a request that carries it.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { accountRole, findAccount, listAccounts } from './accounts';
import {
  checkAuthorizationRequest,
  redirectWith,
  type AuthorizationRequest,
  type AuthorizationRequestCheck,
} from './authorization-request';
import type { AuthContext } from './context';
import { ownOrganisation } from './organisation';
import { renderErrorPage, renderLoginPage } from './pages';
import { readParameters } from './params';
import { grantableScope } from './scopes';

/**
 * Pages of the authorization server must not be framed (clickjacking) nor cached. No
 * form-action directive: browsers apply it to the redirect that follows the form, which goes
 * to the client's loopback port.
 */
function sendHtml(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('x-frame-options', 'DENY')
    .header(
      'content-security-policy',
      "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    )
    .header('referrer-policy', 'no-referrer')
    .send(html);
}

export function sendErrorPage(reply: FastifyReply, message: string): FastifyReply {
  return sendHtml(reply, 400, renderErrorPage(message));
}

/** The header that carries the approval secret (startSandbox's approvalSecret). */
export const APPROVAL_HEADER = 'x-sandbox-approval';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Whether the request may log in: no secret set, or it carries the secret (compared in constant time). */
function approvalAllowed(context: AuthContext, request: FastifyRequest): boolean {
  if (context.approvalSecret === undefined) return true;
  const presented = request.headers[APPROVAL_HEADER];
  return (
    typeof presented === 'string' &&
    timingSafeEqual(digest(presented), digest(context.approvalSecret))
  );
}

/**
 * Without the approval secret nothing is shown or approved: the login page's form would let
 * any program of this computer log in as anyone by posting it.
 */
function sendNotApproved(reply: FastifyReply): FastifyReply {
  return sendHtml(
    reply,
    403,
    renderErrorPage('Diese Anmeldung ist nur der eigenen App dieses Dienstes vorbehalten.'),
  );
}

/** 302 answers a GET; 303 answers the form's POST, so the browser follows it with a GET. */
type RedirectStatus = 302 | 303;

function redirect(reply: FastifyReply, location: string, status: RedirectStatus): FastifyReply {
  return reply.header('cache-control', 'no-store').redirect(location, status);
}

/** Errors before the redirect URI is trusted become a page; later ones go back to the client. */
function answerInvalid(
  reply: FastifyReply,
  check: Exclude<AuthorizationRequestCheck, { kind: 'valid' }>,
  status: RedirectStatus,
): FastifyReply {
  if (check.kind === 'error-page') return sendErrorPage(reply, check.message);
  const { redirectUri, error, description, state } = check;
  return redirect(
    reply,
    redirectWith(redirectUri, { error, error_description: description, state }),
    status,
  );
}

export function registerAuthorizeRoutes(app: FastifyInstance, context: AuthContext): void {
  const { store, grants } = context;

  function approve(
    reply: FastifyReply,
    request: AuthorizationRequest,
    userId: string,
    redirectStatus: RedirectStatus,
  ): FastifyReply {
    const role = accountRole(store, userId);
    if (role === undefined)
      return deny(reply, request, 'The account no longer exists', redirectStatus);
    const code = grants.issueCode({
      userId,
      clientId: request.client.id,
      // Of the requested scopes, those the user's role may use (RFC 6749 §3.3 allows less).
      scope: grantableScope(role, request.scope),
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      nonce: request.nonce,
    });
    return redirect(
      reply,
      redirectWith(request.redirectUri, { code, state: request.state }),
      redirectStatus,
    );
  }

  function deny(
    reply: FastifyReply,
    request: AuthorizationRequest,
    description: string,
    status: RedirectStatus,
  ): FastifyReply {
    const answer = { error: 'access_denied', error_description: description, state: request.state };
    return redirect(reply, redirectWith(request.redirectUri, answer), status);
  }

  app.get('/oauth/v1/authorize', (httpRequest, reply) => {
    if (!approvalAllowed(context, httpRequest)) return sendNotApproved(reply);
    const organisation = ownOrganisation(store);
    const check = checkAuthorizationRequest(
      readParameters(httpRequest.query),
      organisation.key,
      context.clients,
    );
    if (check.kind !== 'valid') return answerInvalid(reply, check, 302);
    const { request } = check;
    const accounts = listAccounts(store);
    const hinted =
      request.loginHint === undefined ? undefined : findAccount(accounts, request.loginHint);
    if (context.autoApprove) {
      const account = request.loginHint === undefined ? accounts[0] : hinted;
      if (!account) return deny(reply, request, 'No account matches the login_hint', 302);
      return approve(reply, request, account.userId, 302);
    }
    return sendHtml(
      reply,
      200,
      renderLoginPage({
        clientName: request.client.displayName,
        organisationName: organisation.name,
        scope: request.scope?.join(' ') ?? 'alle Ihrer Rolle',
        accounts,
        hintedUserId: hinted?.userId,
        hiddenFields: request.echoed,
      }),
    );
  });

  // The form's answer: the request fields come back as hidden inputs and are checked again,
  // since nothing stops a page from posting different ones.
  app.post('/oauth/v1/authorize', (httpRequest, reply) => {
    if (!approvalAllowed(context, httpRequest)) return sendNotApproved(reply);
    const parameters = readParameters(httpRequest.body);
    const check = checkAuthorizationRequest(
      parameters,
      ownOrganisation(store).key,
      context.clients,
    );
    if (check.kind !== 'valid') return answerInvalid(reply, check, 303);
    const { request } = check;
    if (parameters.get('action') === 'deny') {
      return deny(reply, request, 'The user declined the login', 303);
    }
    const userId = parameters.get('user_id');
    if (userId === undefined || accountRole(store, userId) === undefined) {
      return sendErrorPage(reply, 'Bitte wählen Sie eines der angezeigten Konten.');
    }
    return approve(reply, request, userId, 303);
  });
}
