/**
 * The engine: the loops that move the queued files, each on its own thread ({@link io.ferry.engineloop.EngineLoop}: a
 * loop is its {@code pass()} and its settings; {@link io.ferry.scheduler.loops.LoopLifecycle} starts, wakes, measures
 * and stops them all), woken only through {@link io.ferry.scheduler.transitions.EngineWakeups}. The loops claim, plan
 * and schedule; the work on one claimed file runs on their worker pools in {@code engine.tasks}. The path of one file,
 * top to bottom:
 * <ol>
 * <li><b>submit</b> — {@code jobs.JobResource} → {@code jobs.JobService.submit}: parsed
 *     ({@code submission.Submission}), logical sources resolved ({@code jobs.LogicalSources}), every URL checked against
 *     the registered SEs and the VO's rights ({@code storage.StorageBoundary});</li>
 * <li><b>store</b> — {@code transitions.JobInserts}: the job and its files SUBMITTED in one transaction (with
 *     their bearer tokens toward storage, sealed: {@code credentials.JobTokens}, {@code credentials.FileTokenRows}), then
 *     {@link io.ferry.scheduler.transitions.EngineWakeups#jobSubmitted};</li>
 * <li><b>prepare</b> — {@link io.ferry.scheduler.engine.PrepareLoop}: picks files per link by fair share
 *     ({@link io.ferry.scheduler.engine.Scheduling}) and claims them ({@code transitions.FileQueue.claimForPrepare});
 *     each file's {@link io.ferry.scheduler.engine.tasks.PrepareTask} stages tape files
 *     ({@link io.ferry.scheduler.tape.TapeStager}), stats the source and prepares the destination through the mover
 *     {@link io.ferry.scheduler.engine.tasks.MoverChoice} picks; the file becomes READY
 *     ({@code transitions.StateStore.prepared});</li>
 * <li><b>claim</b> — {@link io.ferry.scheduler.engine.TransferLoop}: within the link's target (set by
 *     {@link io.ferry.scheduler.engine.OptimizerLoop}) and the SEs' limits, claims READY files
 *     ({@code transitions.StateStore.schedulingPass}, the claim SQL {@code transitions.FileQueue.transferClaim}), and they
 *     are ACTIVE (announced with the claim, or by {@code transitions.StateStore.started} when the job's row must change);</li>
 * <li><b>move</b> — {@link io.ferry.scheduler.engine.tasks.TransferTask#move}, on the transfer loop's threads: streams
 *     from {@link io.ferry.scheduler.links.StreamAdvice}, the request from {@code engine.tasks.CopyRequests}
 *     with what the file presents to each SE from {@link io.ferry.scheduler.engine.tasks.FileCredentials} (as in prepare;
 *     tokens obtained from the submitter's by {@link io.ferry.scheduler.credentials.SubmitterTokens}),
 *     the copy by the mover ({@code io.ferry.movers}), watched by {@link io.ferry.scheduler.replicas.LeaseKeeper}
 *     (lease, stalls, timeouts, cancels) through {@link io.ferry.scheduler.replicas.RunningFiles};</li>
 * <li><b>verify</b> — inside the mover: size and checksum as the job's {@code submission.ChecksumMode} asks;</li>
 * <li><b>record</b> — {@code transitions.StateChanges.finished} / {@code failed}: the file's new state, its retry history,
 *     the job's state by {@code transitions.JobStateRule}, the transfer record
 *     ({@link io.ferry.scheduler.transitions.TransferRecords}) and the event, atomically per job (batched by
 *     {@link io.ferry.scheduler.transitions.BatchWriter}; a finished batch is one statement, only a job's last files take
 *     a second transaction for its final state);</li>
 * <li><b>deliver</b> — {@link io.ferry.scheduler.delivery.OutboxDelivery}: the records to rate-aggregator.</li>
 * </ol>
 * Beside the path: {@link io.ferry.scheduler.engine.QueueExpiry} (lapsed leases, stale pins, max time in queue),
 * {@link io.ferry.scheduler.engine.JobStateSettler} (jobs whose last change could not settle them),
 * {@link io.ferry.scheduler.engine.ArchiveLoop} (files ARCHIVING on tape), {@link io.ferry.scheduler.engine.ProbeLoop}
 * (link probes' runs), {@link io.ferry.scheduler.credentials.TokenRefresher} (storage tokens exchanged before they
 * expire) and {@link io.ferry.scheduler.credentials.SubmitterTokenExchanger} (each job's submitter token exchanged for a
 * long-lived one).
 */
package io.ferry.scheduler.engine;
