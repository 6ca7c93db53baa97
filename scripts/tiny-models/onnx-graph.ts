// A tiny builder over onnx-proto: just enough to write small float graphs that
// onnxruntime (node, wasm and WebGPU) runs.
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;
export const FLOAT = onnx.TensorProto.DataType.FLOAT;
export const INT64 = onnx.TensorProto.DataType.INT64;

export class GraphBuilder {
  private nodes: InstanceType<typeof onnx.NodeProto>[] = [];
  private initializers: InstanceType<typeof onnx.TensorProto>[] = [];
  private inputs: InstanceType<typeof onnx.ValueInfoProto>[] = [];
  private outputs: InstanceType<typeof onnx.ValueInfoProto>[] = [];
  private counter = 0;

  input(name: string, elemType: number, dims: (string | number)[]): string {
    this.inputs.push(valueInfo(name, elemType, dims));
    return name;
  }

  output(name: string, elemType: number, dims: (string | number)[]): void {
    this.outputs.push(valueInfo(name, elemType, dims));
  }

  floats(values: ArrayLike<number>, dims: number[] = [values.length]): string {
    const name = `c${this.counter++}`;
    const data = Float32Array.from(values);
    this.initializers.push(
      onnx.TensorProto.create({ name, dims, dataType: FLOAT, rawData: new Uint8Array(data.buffer) }),
    );
    return name;
  }

  int64s(values: number[]): string {
    const name = `c${this.counter++}`;
    const data = BigInt64Array.from(values.map(BigInt));
    this.initializers.push(
      onnx.TensorProto.create({ name, dims: [values.length], dataType: INT64, rawData: new Uint8Array(data.buffer) }),
    );
    return name;
  }

  /** Adds a node and returns the name of its (single) output; `out` names it explicitly. */
  op(opType: string, inputs: string[], attrs: Record<string, number | number[]> = {}, out?: string): string {
    const output = out ?? `t${this.counter++}`;
    const attribute = Object.entries(attrs).map(([name, v]) =>
      Array.isArray(v)
        ? onnx.AttributeProto.create({ name, ints: v, type: onnx.AttributeProto.AttributeType.INTS })
        : onnx.AttributeProto.create({ name, i: v, type: onnx.AttributeProto.AttributeType.INT }),
    );
    this.nodes.push(onnx.NodeProto.create({ opType, input: inputs, output: [output], attribute, name: `n${this.counter++}` }));
    return output;
  }

  encode(graphName: string): Uint8Array {
    const graph = onnx.GraphProto.create({
      name: graphName,
      node: this.nodes,
      initializer: this.initializers,
      input: this.inputs,
      output: this.outputs,
    });
    const model = onnx.ModelProto.create({
      irVersion: 8,
      producerName: 'selfrag-browser make-tiny-models',
      opsetImport: [onnx.OperatorSetIdProto.create({ domain: '', version: 17 })],
      graph,
    });
    return onnx.ModelProto.encode(model).finish();
  }
}

function valueInfo(name: string, elemType: number, dims: (string | number)[]) {
  return onnx.ValueInfoProto.create({
    name,
    type: onnx.TypeProto.create({
      tensorType: onnx.TypeProto.Tensor.create({
        elemType,
        shape: onnx.TensorShapeProto.create({
          dim: dims.map((d) =>
            typeof d === 'number' ? onnx.TensorShapeProto.Dimension.create({ dimValue: d }) : onnx.TensorShapeProto.Dimension.create({ dimParam: d }),
          ),
        }),
      }),
    }),
  });
}
