/** Tape SEs: stage (bring-online) requests in the WLCG Tape REST style, their polling and release, and the rows they need. */
package io.ferry.scheduler.tape;
