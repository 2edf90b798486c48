/**
 * The work of the engine's loops on one claimed file, on their worker threads: {@link io.ferry.scheduler.engine.tasks.PrepareTask}
 * (stage, stat, destination checks) and {@link io.ferry.scheduler.engine.tasks.TransferTask} (the copy and its outcome),
 * with what they share: the mover ({@link io.ferry.scheduler.engine.tasks.MoverChoice}), what the file presents to each
 * SE ({@link io.ferry.scheduler.engine.tasks.FileCredentials}), the request ({@code CopyRequests}) and the report of a
 * refused destination ({@link io.ferry.scheduler.engine.tasks.DestinationReport}). Used by the engine only.
 */
package io.ferry.scheduler.engine.tasks;
