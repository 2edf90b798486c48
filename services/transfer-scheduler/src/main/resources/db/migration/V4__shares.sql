-- Fair-share weights: between VOs on every link, and between the activities of one VO.
CREATE TABLE vo_share (
    vo         VARCHAR(100) PRIMARY KEY,
    weight     DOUBLE PRECISION NOT NULL CHECK (weight > 0),
    updated_at TIMESTAMPTZ  NOT NULL DEFAULT now(),
    updated_by VARCHAR(200) NOT NULL
);

CREATE TABLE activity_share (
    vo         VARCHAR(100) NOT NULL,
    activity   VARCHAR(100) NOT NULL,
    weight     DOUBLE PRECISION NOT NULL CHECK (weight > 0),
    PRIMARY KEY (vo, activity)
);
