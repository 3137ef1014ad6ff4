// OpenID Connect ID tokens (OIDC Core §2, §3.1.3.6, §12.2): RS256-signed JWTs with the
// sandbox's signing key, and that key's public half as a JWKS at /oauth/v1/jwks. The key
// pair is made once per sandbox start, in memory, when first needed: a restarted sandbox
// signs with a new key, as a real service does after a key rotation.
import { generateKeyPair, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { calculateJwkThumbprint, SignJWT, type JWK } from 'jose';

const generateRsaKeyPair = promisify(generateKeyPair);

export const ID_TOKEN_ALGORITHM = 'RS256';

interface SigningKey {
  privateKey: KeyObject;
  publicJwk: JWK;
  kid: string;
}

export interface IdTokenClaims {
  issuer: string;
  subject: string;
  audience: string;
  lifetimeSeconds: number;
  /** The authorization request's nonce; absent on refresh (OIDC Core §12.2) and when none was sent. */
  nonce: string | undefined;
  /** When the user logged in (seconds since the epoch). */
  authTime: number;
  nowSeconds: number;
}

export class IdTokenSigner {
  private key: Promise<SigningKey> | undefined;

  private signingKey(): Promise<SigningKey> {
    this.key ??= (async () => {
      const { privateKey, publicKey } = await generateRsaKeyPair('rsa', { modulusLength: 2048 });
      const exported = publicKey.export({ format: 'jwk' }) as JWK;
      const bare: JWK = { kty: exported.kty, n: exported.n, e: exported.e };
      const kid = await calculateJwkThumbprint(bare);
      return {
        privateKey,
        kid,
        publicJwk: { ...bare, kid, use: 'sig', alg: ID_TOKEN_ALGORITHM },
      };
    })();
    return this.key;
  }

  /** The JWKS document (RFC 7517 §5) with the public signing key. */
  async jwks(): Promise<{ keys: JWK[] }> {
    return { keys: [(await this.signingKey()).publicJwk] };
  }

  async sign(claims: IdTokenClaims): Promise<string> {
    const key = await this.signingKey();
    const payload: Record<string, unknown> = { auth_time: claims.authTime };
    if (claims.nonce !== undefined) payload.nonce = claims.nonce;
    return new SignJWT(payload)
      .setProtectedHeader({ alg: ID_TOKEN_ALGORITHM, typ: 'JWT', kid: key.kid })
      .setIssuer(claims.issuer)
      .setSubject(claims.subject)
      .setAudience(claims.audience)
      .setIssuedAt(claims.nowSeconds)
      .setExpirationTime(claims.nowSeconds + claims.lifetimeSeconds)
      .sign(key.privateKey);
  }
}
