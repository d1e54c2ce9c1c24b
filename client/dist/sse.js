/** Feeds text chunks in, hands complete events and `retry:` hints out. Comments (`: ping`) are dropped. */
export class SseParser {
    onMessage;
    onRetry;
    buffer = '';
    event = '';
    data = [];
    lastId;
    /** A CR ended the previous chunk: an LF starting the next one belongs to it. */
    pendingCr = false;
    constructor(onMessage, onRetry = () => { }) {
        this.onMessage = onMessage;
        this.onRetry = onRetry;
    }
    push(chunk) {
        let text = chunk;
        if (this.pendingCr && text.startsWith('\n'))
            text = text.slice(1);
        this.pendingCr = false;
        this.buffer += text;
        let start = 0;
        for (let i = 0; i < this.buffer.length; i++) {
            const c = this.buffer[i];
            if (c !== '\n' && c !== '\r')
                continue;
            this.line(this.buffer.slice(start, i));
            if (c === '\r') {
                if (i + 1 === this.buffer.length)
                    this.pendingCr = true;
                else if (this.buffer[i + 1] === '\n')
                    i++;
            }
            start = i + 1;
        }
        this.buffer = this.buffer.slice(start);
    }
    line(line) {
        if (line === '')
            return this.dispatch();
        if (line.startsWith(':'))
            return;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        let value = colon < 0 ? '' : line.slice(colon + 1);
        if (value.startsWith(' '))
            value = value.slice(1);
        switch (field) {
            case 'event':
                this.event = value;
                break;
            case 'data':
                this.data.push(value);
                break;
            case 'id':
                if (!value.includes('\0'))
                    this.lastId = value;
                break;
            case 'retry':
                if (/^\d+$/.test(value))
                    this.onRetry(Number(value));
                break;
        }
    }
    dispatch() {
        if (this.data.length)
            this.onMessage({ event: this.event || 'message', data: this.data.join('\n'), id: this.lastId });
        this.event = '';
        this.data = [];
    }
}
