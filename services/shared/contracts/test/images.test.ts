import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { contentTypeByExtension, imageKey, initialsOf, isImageExtension } from '../src/images';

describe('image contracts', () => {
  test('when keys are built, then they are exactly the spec §7 keys', () => {
    assert.equal(imageKey('user', 'profile', 'u1', 'png'), 'user/profile-img/u1.png');
    assert.equal(imageKey('user', 'cover', 'u1', 'jpg'), 'user/cover-img/u1.jpg');
    assert.equal(imageKey('brand', 'profile', 'b1', 'svg'), 'brand/profile-img/b1.svg');
    assert.equal(imageKey('brand', 'cover', 'b1', 'webp'), 'brand/cover-img/b1.webp');
  });

  test('when initials are taken, then they are the first letters of at most two words, uppercased', () => {
    assert.equal(initialsOf('Blue Ocean Labs'), 'BO');
    assert.equal(initialsOf('  grace   hopper '), 'GH');
    assert.equal(initialsOf('anna99'), 'A');
    assert.equal(initialsOf('(acme) 3m'), 'A3');
    assert.equal(initialsOf(''), '?');
  });

  test('when an extension is checked, then only png, jpeg, jpg, svg and webp are accepted, each with its content type', () => {
    assert.deepEqual(['png', 'jpeg', 'jpg', 'svg', 'webp', 'gif', 'PNG'].map(isImageExtension), [
      true,
      true,
      true,
      true,
      true,
      false,
      false,
    ]);
    assert.equal(contentTypeByExtension.jpg, 'image/jpeg');
    assert.equal(contentTypeByExtension.svg, 'image/svg+xml');
  });
});
