import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'vitest';
import nodemailer from 'nodemailer';
import { listMails, resolveTestStack, waitForMail } from '../src/test-env';

test('when a mail is sent through the SMTP catcher, then it can be read back by its recipient', async () => {
  // Arrange
  const stack = await resolveTestStack();
  const to = `infra-${randomUUID()}@example.com`;
  const transport = nodemailer.createTransport({
    host: stack.smtp.host,
    port: stack.smtp.port,
    secure: false,
  });

  // Act
  await transport.sendMail({
    from: 'no-reply@raly.local',
    to,
    subject: 'Welcome to Raly',
    text: 'Hello from the test',
  });

  // Assert
  const mail = await waitForMail(to);
  assert.equal(mail.subject, 'Welcome to Raly');
  assert.match(mail.text, /Hello from the test/);
  assert.equal((await listMails(to)).length, 1);
  transport.close();
});
