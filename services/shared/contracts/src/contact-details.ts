/**
 * Whether a text looks like it holds an e-mail address or a phone number
 * (docs/product-spec.md "Collaborations", privacy): messages ask their author
 * to confirm such a body; review comments refuse it. Shared by the browser and
 * the services so both judge a text the same way.
 */

/** An address with an at sign, also written out ("name (at) host (dot) com"). */
const EMAIL_LIKE =
  /[a-z0-9._%+-]+\s*(?:@|\(at\)|\[at\])\s*[a-z0-9-]+(?:(?:\.|\s*\(dot\)\s*|\s*\[dot\]\s*)[a-z0-9-]+)+/i;
/** Eight or more digits, allowing the separators people write phone numbers with. */
const PHONE_LIKE = /(?:\+\s*)?\(?\d(?:[\s().-]{0,2}\d){7,}/;
/** Dates and times, which are digits too but no contact details. */
const DATE_OR_TIME =
  /\b\d{4}-\d{1,2}-\d{1,2}\b|\b\d{1,2}[./-]\d{1,2}[./-]\d{2,4}\b|\b\d{1,2}:\d{2}\b/g;

/**
 * Whether a message body looks like it holds an e-mail address or a phone
 * number (also spelled out: "name at host dot com"). It errs on the side of
 * asking: the author confirms and the message is sent.
 * @param body the message text
 */
export function looksLikeContactDetails(body: string): boolean {
  return EMAIL_LIKE.test(body) || PHONE_LIKE.test(body.replace(DATE_OR_TIME, ' '));
}
