/** What a file presents to storage as bearer tokens: sealed at rest, brought by the submission or exchanged from the submitter's token, refreshed before they expire. */
package io.ferry.scheduler.credentials;
