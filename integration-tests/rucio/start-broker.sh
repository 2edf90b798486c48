#!/usr/bin/env bash
# A real STOMP broker for the receiver: Debian's ActiveMQ 5.17 (apt-get install -y --no-install-recommends activemq;
# what Rucio's own dev setup runs), one instance under $BROKER_DIR (default /tmp/rucio-broker) with only a STOMP
# connector on 127.0.0.1:$BROKER_PORT (default 61613), no authentication, no JMX, 256 MiB heap.
# Stop it with: kill "$(cat $BROKER_DIR/broker.pid)"
set -euo pipefail
BROKER_DIR="${BROKER_DIR:-/tmp/rucio-broker}"; BROKER_PORT="${BROKER_PORT:-61613}"
mkdir -p "$BROKER_DIR/conf" "$BROKER_DIR/data" "$BROKER_DIR/tmp"
cp -n /etc/activemq/instances-available/main/log4j2.properties "$BROKER_DIR/conf/" 2>/dev/null || true
cat >"$BROKER_DIR/conf/activemq.xml" <<XML
<beans xmlns="http://www.springframework.org/schema/beans" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.springframework.org/schema/beans http://www.springframework.org/schema/beans/spring-beans-2.0.xsd
  http://activemq.apache.org/schema/core http://activemq.apache.org/schema/core/activemq-core.xsd">
  <broker xmlns="http://activemq.apache.org/schema/core" useJmx="false" persistent="false" brokerName="rucio-test"
          dataDirectory="$BROKER_DIR/data">
    <transportConnectors>
      <transportConnector name="stomp" uri="stomp://127.0.0.1:$BROKER_PORT"/>
    </transportConnectors>
  </broker>
</beans>
XML
if [ -f "$BROKER_DIR/broker.pid" ] && kill -0 "$(cat "$BROKER_DIR/broker.pid")" 2>/dev/null; then
  echo "127.0.0.1:$BROKER_PORT"; exit 0
fi
java=/usr/lib/jvm/default-java/bin/java; [ -x "$java" ] || java=java
nohup "$java" -Xms128M -Xmx256M -Dactivemq.home=/usr/share/activemq -Dactivemq.base="$BROKER_DIR" \
  -Dactivemq.conf="$BROKER_DIR/conf" -Dactivemq.data="$BROKER_DIR/data" -Djava.io.tmpdir="$BROKER_DIR/tmp" \
  -Dlog4j2.configurationFile="$BROKER_DIR/conf/log4j2.properties" \
  -jar /usr/share/activemq/bin/activemq.jar start "xbean:file:$BROKER_DIR/conf/activemq.xml" >"$BROKER_DIR/broker.log" 2>&1 &
echo $! >"$BROKER_DIR/broker.pid"
for _ in $(seq 1 120); do
  (exec 3<>"/dev/tcp/127.0.0.1/$BROKER_PORT") 2>/dev/null && { echo "127.0.0.1:$BROKER_PORT"; exit 0; }
  kill -0 "$(cat "$BROKER_DIR/broker.pid")" 2>/dev/null || { cat "$BROKER_DIR/broker.log"; exit 1; }
  sleep 0.5
done
echo "the broker did not listen on $BROKER_PORT: $BROKER_DIR/broker.log" >&2; exit 1
