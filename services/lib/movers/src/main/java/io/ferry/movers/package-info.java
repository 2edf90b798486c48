/** The data movers: one class per protocol family behind {@link io.ferry.movers.Mover}, plain JDK (canl signs proxy delegations), called by the scheduler's engine. */
package io.ferry.movers;
