import { HttpError } from 'ra-core';
import { describe, expect, it } from 'vitest';
import { errorMessage, fieldErrorsOf, submitFailure } from '../../src/generic/serverErrors';

const badRequest = new HttpError('Invalid user_name, password', 400, {
  message: 'Invalid user_name, password',
  errors: { user_name: 'At least 2 characters', password: 'At least 10 characters' },
});

describe('fieldErrorsOf', () => {
  it('reads the `errors` map of an API 400 kept in HttpError.body', () => {
    expect(fieldErrorsOf(badRequest)).toEqual({
      user_name: 'At least 2 characters',
      password: 'At least 10 characters',
    });
  });
  it('gives nothing for errors without one', () => {
    expect(fieldErrorsOf(new Error('offline'))).toEqual({});
    expect(fieldErrorsOf(null)).toEqual({});
  });
});

describe('submitFailure', () => {
  it('puts messages on the inputs the form shows and reports the others', () => {
    expect(submitFailure(badRequest, ['user_name'])).toEqual({
      fields: { user_name: 'At least 2 characters' },
      general: 'At least 10 characters',
    });
  });
  it('needs no general message when every error has its input', () => {
    expect(submitFailure(badRequest, ['user_name', 'password']).general).toBeNull();
  });
  it('falls back to the message of errors without fields', () => {
    const forbidden = new HttpError('Only the account holder can change the password', 403, {
      message: 'Only the account holder can change the password',
    });
    expect(submitFailure(forbidden, ['password'])).toEqual({
      fields: {},
      general: 'Only the account holder can change the password',
    });
  });
});

describe('errorMessage', () => {
  it('uses a fallback when an error says nothing', () => {
    expect(errorMessage({}, 'fallback')).toBe('fallback');
    expect(errorMessage(new Error('boom'))).toBe('boom');
  });
});
