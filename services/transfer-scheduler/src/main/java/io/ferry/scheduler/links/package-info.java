/** How links are driven: their limits and streams, the optimizer's targets and decisions, and the VO and activity shares. */
package io.ferry.scheduler.links;
