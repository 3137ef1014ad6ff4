// The ApiError a call's promise rejects with (the test fails when it resolves or throws another).
import { expect } from 'vitest';
import { ApiError } from '../errors';

export async function apiError(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}
