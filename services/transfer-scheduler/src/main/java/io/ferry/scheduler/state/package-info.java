/**
 * The owner of the state machine: file and job states and checksum modes as types, the job-state rule
 * ({@link io.ferry.scheduler.state.JobStateRule}, its only definition) and the one writer of state changes
 * ({@link io.ferry.scheduler.state.StateChanges}), used by the engine and by cancellation alike. Error codes are the
 * movers' {@code io.ferry.movers.MoverException.Code}.
 */
package io.ferry.scheduler.state;
